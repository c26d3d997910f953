/**
 * Operator accounts in the admin API (issue 31), what `chatbridge operators …` calls, behind the admin token (the
 * break-glass key: the first admin is added with it):
 *   GET    /admin/operators                         every account, with its number of live sessions
 *   POST   /admin/operators                         {"email", "name"?, "role"?, "bots"?, "telegramIds"?}   adds one
 *   PATCH  /admin/operators/:email                  {"name"?, "role"?, "bots"?, "telegramIds"?}            changes one
 *   DELETE /admin/operators/:email                  removes one, ending their sessions
 *   GET    /admin/operators/:email/sessions         their signed-in sessions
 *   DELETE /admin/operators/:email/sessions/:id     ends one
 *   GET    /admin/operators-audit?limit=N           the audit log, newest first
 * Every change goes through the roster, which writes the audit log; a refusal is the roster's status and words.
 */
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import {
  AUDIT_MAX_ENTRIES,
  OPERATOR_ROLES,
  type AccountSessionInfo,
  type Actor,
  type AuditEntry,
  type OperatorAccount,
  type OperatorRoster,
  type RosterOutcome,
} from '../operators/index.js';

/** An account as the API shows it (its epoch is the sessions' business, not an admin's). */
export interface OperatorView {
  id: string;
  email: string;
  name: string;
  role: OperatorAccount['role'];
  bots: 'all' | string[];
  telegramIds: string[];
  createdAt: number;
  /** Live sessions: in the list only. */
  sessions?: number;
}

/** What a change answers: the account as it is now, and how many of its sessions the change ended. */
export interface OperatorChange {
  operator: OperatorView;
  endedSessions: number;
}

export interface OperatorSessions {
  operator: OperatorView;
  sessions: AccountSessionInfo[];
}

export const AUDIT_DEFAULT_LIMIT = 100;

/** What the admin token is called in the audit log. */
const ADMIN_TOKEN_ACTOR = 'the admin token';

const BOTS_MUST = 'bots must be "all" or a list of bot ids';
const TELEGRAM_IDS_MUST = 'telegramIds must be a list of Telegram user ids, each as text ("123456789")';
const changeSchema = z.strictObject(
  {
    name: z.string({ error: 'name must be text' }).optional(),
    role: z
      .enum(OPERATOR_ROLES, { error: `role must be ${OPERATOR_ROLES.map((role) => `"${role}"`).join(' or ')}` })
      .optional(),
    bots: z.union([z.literal('all'), z.array(z.string())], { error: BOTS_MUST }).optional(),
    // The element's own message too: a list of numbers is the likely mistake.
    telegramIds: z.array(z.string({ error: TELEGRAM_IDS_MUST }), { error: TELEGRAM_IDS_MUST }).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? undefined : 'the body must be a JSON object') },
);
const addSchema = changeSchema.extend({ email: z.string({ error: "email must be text, the operator's address" }) });

export function operatorRoutes(router: Router, roster: OperatorRoster): void {
  router.get('/operators', async (_req, res) => {
    const accounts = await roster.list();
    const operators = await Promise.all(
      accounts.map(async (account) => ({
        ...view(account),
        sessions: (await roster.sessionsOf(account)).length,
      })),
    );
    res.json({ operators });
  });

  router.post('/operators', async (req, res) => {
    const input = parse(addSchema, req, res);
    if (!input) return;
    answer(res, await roster.add(input, actor(req)), 201);
  });

  router.patch('/operators/:email', async (req, res) => {
    const patch = parse(changeSchema, req, res);
    if (!patch) return;
    if (Object.keys(patch).length === 0)
      return void res.status(400).json({ error: 'Nothing to change: give name, role, bots or telegramIds.' });
    answer(res, await roster.change(String(req.params.email), patch, actor(req)));
  });

  router.delete('/operators/:email', async (req, res) => {
    const outcome = await roster.remove(String(req.params.email), actor(req));
    answer(res, outcome, 200, { removed: true });
  });

  router.get('/operators/:email/sessions', async (req, res) => {
    const email = String(req.params.email);
    const found = await roster.sessions(email);
    if (!found) return void res.status(404).json({ error: notFoundMessage(email) });
    const body: OperatorSessions = { operator: view(found.account), sessions: found.sessions };
    res.json(body);
  });

  router.delete('/operators/:email/sessions/:id', async (req, res) => {
    answer(res, await roster.endSession(String(req.params.email), String(req.params.id), actor(req)));
  });

  router.get('/operators-audit', async (req, res) => {
    const limit = auditLimit(req.query.limit);
    if (limit === null)
      return void res.status(400).json({
        error: `limit must be a whole number from 1 to ${AUDIT_MAX_ENTRIES} (got ${JSON.stringify(req.query.limit)}).`,
      });
    const entries: AuditEntry[] = await roster.audit(limit);
    res.json({ entries });
  });
}

/** The body as `schema` reads it, or null once a 400 naming the field is sent. */
function parse<T>(schema: z.ZodType<T>, req: Request, res: Response): T | null {
  const parsed = schema.safeParse(req.body ?? {});
  if (parsed.success) return parsed.data;
  res.status(400).json({ error: `${parsed.error.issues.map(describeIssue).join('; ')}.` });
  return null;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `no field ${issue.keys.map((key) => `"${key}"`).join(', ')} here (the fields are email, name, role, bots, telegramIds; an address does not change)`;
  // A field's own message names it; the path says which element of a list.
  const where = issue.path.length > 1 ? ` (at ${issue.path.join('.')})` : '';
  return `${issue.message}${where}`;
}

function answer(res: Response, outcome: RosterOutcome, status = 200, extra: Record<string, unknown> = {}): void {
  if (!outcome.ok) return void res.status(outcome.status).json({ error: outcome.message });
  const body: OperatorChange = { operator: view(outcome.account), endedSessions: outcome.endedSessions };
  res.status(status).json({ ...extra, ...body });
}

function view(account: OperatorAccount): OperatorView {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    bots: account.bots === 'all' ? 'all' : [...account.bots],
    telegramIds: [...account.telegramIds],
    createdAt: account.createdAt,
  };
}

/** The admin token's holder, from where they called (express's address: X-Forwarded-For only behind a trusted proxy). */
function actor(req: Request): Actor {
  const address = req.ip ?? req.socket.remoteAddress;
  return { name: ADMIN_TOKEN_ACTOR, ...(address ? { address } : {}) };
}

function auditLimit(raw: unknown): number | null {
  if (raw === undefined) return AUDIT_DEFAULT_LIMIT;
  if (typeof raw !== 'string' || !/^[1-9][0-9]{0,8}$/.test(raw)) return null;
  return Math.min(Number(raw), AUDIT_MAX_ENTRIES);
}

function notFoundMessage(email: string): string {
  return `No operator ${email}; \`chatbridge operators list\` shows them.`;
}
