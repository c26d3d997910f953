/**
 * The admins' Operators page (/inbox/operators) and its forms, through the OperatorRoster as the admin API's are:
 *   GET  /operators                                  the accounts, their sessions, the add form, the audit log
 *   POST /operators              email, name, role, bots   adds one
 *   POST /operators/:email/role  role
 *   POST /operators/:email/bots  bots
 *   POST /operators/:email/remove
 *   POST /operators/:email/sessions/:id/end
 * Only an admin's session opens them (an admin account's, or the admin token's); an operator's gets 404, as for a page
 * that is not there for them.
 */
import type { Request, Response, Router } from 'express';
import type { Actor, OperatorInput, OperatorRoster, OperatorRole } from '../operators/index.js';
import { formOf, send, type InboxRequests } from './inbox-requests.js';
import { operatorsPage } from './pages/operators.js';
import { noticePage } from './pages/sign-in.js';
import type { InboxSession } from './sessions.js';
import { signInAddress } from './sign-in-limit.js';

/** Audit entries the page shows; `chatbridge operators audit --limit` reads further back. */
const AUDIT_SHOWN = 100;

export function mountOperators(
  router: Router,
  requests: InboxRequests,
  roster: OperatorRoster,
  bots: readonly string[],
): void {
  const { root } = requests;
  const page = `${root}/operators`;

  const render = async (res: Response, session: InboxSession, status = 200, error?: string, draft?: object) => {
    const accounts = await roster.list();
    const operators = await Promise.all(
      accounts.map(async (account) => ({ account, sessions: await roster.sessionsOf(account) })),
    );
    const audit = await roster.audit(AUDIT_SHOWN);
    send(
      res,
      status,
      operatorsPage(root, session, {
        operators,
        bots,
        audit,
        ...(error ? { error } : {}),
        ...(draft ? { draft } : {}),
      }),
    );
  };

  const notForYou = (res: Response, session: InboxSession) =>
    send(res, 404, noticePage(root, 'Not found', 'The Operators page is for admins.', session));

  router.get('/operators', async (req, res) => {
    const session = await requests.pageSession(req, res);
    if (!session) return;
    if (session.role !== 'admin') return notForYou(res, session);
    await render(res, session);
  });

  /** A POST of the page: an admin's session past the cross-site checks, the change, then back to the page. */
  const change = (path: string, act: (req: Request, by: Actor) => ReturnType<OperatorRoster['add']>) => {
    router.post(path, async (req, res) => {
      const session = await requests.postSession(req, res);
      if (!session) return;
      if (session.role !== 'admin') return notForYou(res, session);
      const by: Actor = { name: session.account?.email ?? 'the admin token', address: signInAddress(req).address };
      const outcome = await act(req, by);
      if (!outcome.ok) {
        const form = formOf(req);
        return render(res, session, outcome.status, outcome.message, { email: form.email, name: form.name });
      }
      res.redirect(303, page);
    });
  };

  change('/operators', (req, by) => {
    const form = formOf(req);
    const picked = botsOf(req);
    const input: OperatorInput = {
      email: form.email ?? '',
      ...(form.name ? { name: form.name } : {}),
      role: roleOf(form.role),
      bots: picked.length > 0 ? picked : 'all',
    };
    return roster.add(input, by);
  });
  change('/operators/:email/role', (req, by) => roster.change(emailParam(req), { role: roleOf(formOf(req).role) }, by));
  change('/operators/:email/bots', (req, by) => {
    const picked = botsOf(req);
    return roster.change(emailParam(req), { bots: picked.length === bots.length ? 'all' : picked }, by);
  });
  change('/operators/:email/remove', (req, by) => roster.remove(emailParam(req), by));
  change('/operators/:email/sessions/:id/end', (req, by) =>
    roster.endSession(emailParam(req), String(req.params.id), by),
  );
}

function emailParam(req: Request): string {
  return String(req.params.email);
}

/** The role a form names; anything else is passed on for the roster to refuse by name. */
function roleOf(value: string | undefined): OperatorRole {
  return (value ?? 'operator') as OperatorRole;
}

/** The ticked chatbots (one field per box: a string for one, an array for several). */
function botsOf(req: Request): string[] {
  const raw = (req.body as { bots?: unknown } | undefined)?.bots;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.filter((bot): bot is string => typeof bot === 'string');
}
