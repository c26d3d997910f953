/**
 * One conversation in the inbox: its page, and what an operator does there (reply, claim, hand back, open a file
 * the user sent). Every action goes through the OperatorDesk, as the admin API's do; a refusal comes back on the
 * page with the draft kept.
 */
import type { Response, Router } from 'express';
import type { ConversationRef } from '../../contract.js';
import type { Gateway } from '../../gateway/index.js';
import { formatConversationId } from '../conversation-id.js';
import type { OperatorDesk, OperatorSignature, ReplyOutcome } from '../pause/index.js';
import { sendFile, userFile } from './files.js';
import { formOf, send, type InboxRequests } from './inbox-requests.js';
import { conversationPage, signatureOf, type ConversationView } from './pages/conversation.js';
import { conversationPath } from './pages/format.js';
import { noticePage } from './pages/sign-in.js';
import type { InboxSession } from './sessions.js';

/** GET /conversations/:id and its actions, on `router`. */
export function mountConversations(
  router: Router,
  requests: InboxRequests,
  options: { desk: OperatorDesk; gateway: Gateway },
): void {
  const { desk } = options;
  const { root } = requests;
  const showConversation = async (
    res: Response,
    session: InboxSession,
    conversation: ConversationRef,
    status = 200,
    view: ConversationView = {},
  ) => {
    const [opened, accounts] = await Promise.all([desk.open(conversation), desk.accountNames()]);
    send(res, status, conversationPage(root, session, opened, Date.now(), view, accounts));
  };

  router.get('/conversations/:id', async (req, res) => {
    const session = await requests.pageSession(req, res);
    const conversation = session && requests.conversationOf(req, res, session);
    if (!session || !conversation) return;
    await showConversation(res, session, conversation);
  });

  router.post('/conversations/:id/messages', async (req, res) => {
    const session = await requests.postSession(req, res);
    const conversation = session && requests.conversationOf(req, res, session);
    if (!session || !conversation) return;
    const text = formOf(req).text ?? '';
    if (!(await desk.open(conversation)).pause) {
      return showConversation(res, session, conversation, 409, {
        error: 'This conversation was handed back to the assistant: your reply was not sent.',
        draft: text,
      });
    }
    const outcome = await desk.reply(conversation, text, signatureOf(session));
    if (outcome.sent) return void res.redirect(303, conversationPath(root, formatConversationId(conversation)));
    await showConversation(res, session, conversation, replyStatus(outcome), {
      error: replyError(outcome),
      draft: text,
    });
  });

  router.post('/conversations/:id/claim', async (req, res) => {
    const session = await requests.postSession(req, res);
    const conversation = session && requests.conversationOf(req, res, session);
    if (!session || !conversation) return;
    // The holder the page showed ('' for nobody); a form without it (an older page) claims from whoever holds it now.
    const { holder, holderAccount, holderVia } = formOf(req);
    const shown: OperatorSignature | null = holder
      ? { name: holder, ...(holderAccount ? { account: holderAccount } : {}), ...(holderVia ? { via: holderVia } : {}) }
      : null;
    const claim = await desk.claim(
      conversation,
      signatureOf(session),
      holder === undefined ? undefined : { holder: shown },
    );
    if (claim.outcome === 'not-paused') {
      return showConversation(res, session, conversation, 409, {
        error: 'This conversation is not waiting for a person any more: there is nothing to claim.',
      });
    }
    if (claim.outcome === 'changed') {
      return showConversation(res, session, conversation, 409, {
        error: claim.holder
          ? `${claim.holder} claimed this conversation while you were looking at it: it is theirs. Press Claim again to take it over.`
          : 'This conversation changed while you were looking at it; nothing was claimed. Look again, then press Claim.',
      });
    }
    res.redirect(303, conversationPath(root, formatConversationId(conversation)));
  });

  router.post('/conversations/:id/hand-back', async (req, res) => {
    const session = await requests.postSession(req, res);
    const conversation = session && requests.conversationOf(req, res, session);
    if (!session || !conversation) return;
    const outcome = await desk.handBack(conversation, { operator: signatureOf(session) });
    if (outcome === 'not-paused') {
      return showConversation(res, session, conversation, 409, {
        error: 'This conversation was already back with the assistant. Nothing was changed.',
      });
    }
    res.redirect(303, conversationPath(root, formatConversationId(conversation)));
  });

  router.get('/conversations/:id/files/:entry/:n', async (req, res) => {
    const session = await requests.pageSession(req, res);
    const conversation = session && requests.conversationOf(req, res, session);
    if (!session || !conversation) return;
    const at = Number(req.params.entry);
    const n = Number(req.params.n);
    if (!Number.isSafeInteger(at) || !Number.isSafeInteger(n) || n < 0) {
      return void send(
        res,
        404,
        noticePage(root, 'No such file', 'This address names no file of the conversation.', session),
      );
    }
    const file = await userFile(options.gateway, (await desk.open(conversation)).transcript, conversation, at, n);
    if (!file.ok)
      return void send(res, file.status, noticePage(root, 'The file cannot be shown', file.message, session));
    sendFile(res, file);
  });
}

function replyStatus(outcome: Exclude<ReplyOutcome, { sent: true }>): number {
  if (outcome.problem === 'invalid') return 400;
  if (outcome.problem === 'not-served') return 404;
  // What a later try may get through (the platform busy, unreachable, or refusing the bot's token until it is fixed).
  return outcome.kind === 'rate-limited' || outcome.kind === 'unreachable' || outcome.kind === 'unauthorized'
    ? 503
    : 422;
}

function replyError(outcome: Exclude<ReplyOutcome, { sent: true }>): string {
  if (outcome.problem !== 'platform') return `Your reply was not sent: ${outcome.message}`;
  return `Your reply was not sent: the platform said "${outcome.message}".`;
}
