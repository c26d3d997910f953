/**
 * The operators' side of the admin API, for the CLI: only the running gateway
 * holds the platform connections, so `chatbridge handoff …` asks it over HTTP
 * rather than touching Redis itself. `chatbridge operators …` goes the same way: the
 * gateway's roster writes the audit log and ends sessions in every process.
 */
import { parseConversationId } from '../conversation-id.js';
import type { DigestAttachment, DigestKind, DigestMail, DigestSendOutcome } from '../digests/index.js';
import type { AuditEntry, OperatorInput } from '../operators/index.js';
import type { OperatorChange, OperatorSessions, OperatorView } from './operator-routes.js';

/** GET /admin/digests/:bot: the mail as it would be sent, each attachment with its size in bytes. */
export interface DigestPreview {
  bot: string;
  kind: DigestKind;
  day: string;
  /** The setting's address; null when it holds none. */
  to: string | null;
  mail: (Omit<DigestMail, 'attachments'> & { attachments: (DigestAttachment & { size: number })[] }) | null;
}

/** POST /admin/digests/:bot/send: what was done, with the operator's words for a refusal. */
export type DigestSendAnswer = DigestSendOutcome & { bot: string; kind: DigestKind; day: string; error?: string };

export class HandoffAdminClient {
  constructor(
    /** `http://127.0.0.1:8080` */
    private readonly baseUrl: string,
    /** ADMIN_TOKEN (admin.token). */
    private readonly token: string,
  ) {}

  /** Paused conversations, plus the handoff e-mails given up on (an operator has to act on those). */
  async list(): Promise<{ handoffs: unknown; deadMail: unknown }> {
    const [paused, mail] = await Promise.all([this.call('GET', '/admin/handoffs'), this.mail()]);
    return { handoffs: (paused as { handoffs?: unknown }).handoffs, deadMail: mail.dead };
  }

  /** E-mails waiting in the outbox and dead letters. */
  async mail(): Promise<{ waiting: unknown[]; dead: unknown[] }> {
    return (await this.call('GET', '/admin/handoff-mail')) as { waiting: unknown[]; dead: unknown[] };
  }

  /** A dead letter back into the outbox. */
  async retryMail(id: string): Promise<unknown> {
    return this.call('POST', `/admin/handoff-mail/${encodeURIComponent(id)}/retry`);
  }

  async show(conversation: string): Promise<unknown> {
    return this.call('GET', conversationPath(conversation));
  }

  async resume(conversation: string): Promise<{ resumed: boolean }> {
    return (await this.call('POST', `${conversationPath(conversation)}/resume`)) as { resumed: boolean };
  }

  /** Marks the conversation as `name`'s (the operator's display name), as the inbox's Claim does. */
  async claim(conversation: string, name: string): Promise<{ claimedBy: string; takenFrom?: string }> {
    return (await this.call('POST', `${conversationPath(conversation)}/claim`, { name })) as {
      claimedBy: string;
      takenFrom?: string;
    };
  }

  async say(conversation: string, text: string): Promise<unknown> {
    return this.call('POST', `${conversationPath(conversation)}/messages`, { text });
  }

  /** The day's digest of `kind` as it would be sent (`day`: default today in the chatbot's zone). */
  async digestPreview(bot: string, kind: DigestKind, day?: string): Promise<DigestPreview> {
    const query = new URLSearchParams({ kind, ...(day ? { day } : {}) });
    return (await this.call('GET', `${digestPath(bot)}?${query.toString()}`)) as DigestPreview;
  }

  /**
   * Queues the digest, once per chatbot, kind and day unless `again`. Already sent (409) and no address (422) are
   * outcomes to tell the operator, not failures of the call.
   */
  async sendDigest(bot: string, kind: DigestKind, day: string, again = false): Promise<DigestSendAnswer> {
    return (await this.call(
      'POST',
      `${digestPath(bot)}/send`,
      { kind, day, ...(again ? { again } : {}) },
      [409, 422],
    )) as DigestSendAnswer;
  }

  /** Every operator account, each with its number of live sessions. */
  async operators(): Promise<OperatorView[]> {
    return ((await this.call('GET', '/admin/operators')) as { operators: OperatorView[] }).operators;
  }

  async addOperator(input: OperatorInput): Promise<OperatorChange> {
    return (await this.call('POST', '/admin/operators', input)) as OperatorChange;
  }

  /** Changes what `patch` gives; a change that takes something away ends the operator's sessions. */
  async changeOperator(email: string, patch: Omit<OperatorInput, 'email'>): Promise<OperatorChange> {
    return (await this.call('PATCH', operatorPath(email), patch)) as OperatorChange;
  }

  async removeOperator(email: string): Promise<OperatorChange> {
    return (await this.call('DELETE', operatorPath(email))) as OperatorChange;
  }

  async operatorSessions(email: string): Promise<OperatorSessions> {
    return (await this.call('GET', `${operatorPath(email)}/sessions`)) as OperatorSessions;
  }

  async endOperatorSession(email: string, sessionId: string): Promise<OperatorChange> {
    return (await this.call(
      'DELETE',
      `${operatorPath(email)}/sessions/${encodeURIComponent(sessionId)}`,
    )) as OperatorChange;
  }

  /** The operators' audit log, newest first (`limit`: default the API's, 100). */
  async operatorsAudit(limit?: number): Promise<AuditEntry[]> {
    const query = limit === undefined ? '' : `?limit=${limit}`;
    return ((await this.call('GET', `/admin/operators-audit${query}`)) as { entries: AuditEntry[] }).entries;
  }

  /** `outcomes`: statuses besides 2xx whose JSON answer is returned rather than thrown. */
  private async call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    outcomes: readonly number[] = [],
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new Error(
        `The gateway at ${this.baseUrl} is not reachable (${(error as Error).message}); is \`chatbridge start\` running with this PORT?`,
        { cause: error },
      );
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text for the error message
    }
    const outcome = outcomes.includes(response.status) && typeof parsed === 'object' && parsed !== null;
    if (!response.ok && !outcome) {
      const reason =
        typeof parsed === 'object' && parsed !== null && 'error' in parsed
          ? String((parsed as { error: unknown }).error)
          : text;
      throw new Error(`${method} ${path} failed with HTTP ${response.status}: ${reason}`);
    }
    return parsed;
  }
}

function conversationPath(conversation: string): string {
  if (!parseConversationId(conversation)) {
    throw new Error(`"${conversation}" is not <bot>:<platform>:<conversation id>, e.g. main:telegram:12345.`);
  }
  return `/admin/conversations/${encodeURIComponent(conversation)}`;
}

function operatorPath(email: string): string {
  if (email.trim() === '')
    throw new Error('Name the operator by their e-mail address (`chatbridge operators list` shows them).');
  return `/admin/operators/${encodeURIComponent(email.trim())}`;
}

function digestPath(bot: string): string {
  if (bot.trim() === '') throw new Error('Name the bot (--bot <id>, as in bots[] of the config).');
  return `/admin/digests/${encodeURIComponent(bot)}`;
}
