/**
 * `chatbridge operators add|list|change|role|remove|sessions|end-session|audit`: operator accounts (issue 31), through
 * the running gateway's admin API (http://127.0.0.1:PORT, ADMIN_TOKEN), as the handoff commands: the gateway's roster
 * writes the audit log and ends a removed operator's sessions in every process. The admin token is the break-glass
 * key: `chatbridge operators add you@example.com --role admin` makes the first admin.
 */
import type { Command } from 'commander';
import {
  AUDIT_MAX_ENTRIES,
  OPERATOR_ROLES,
  type AccountSessionInfo,
  type AuditEntry,
  type OperatorChange,
  type OperatorRole,
  type OperatorView,
} from '../handoff/index.js';
import { adminClient } from './handoff-commands.js';

interface AccountOptions {
  name?: string;
  role?: string;
  bots?: string;
  telegramIds?: string;
}

const BOTS_HELP = 'the chatbots they see: bot ids separated by commas, or "all" (an admin sees all)';
const TELEGRAM_HELP = 'their Telegram user ids in an operators\' forum, separated by commas ("" for none)';

export function registerOperatorCommands(program: Command): void {
  const operators = program
    .command('operators')
    .description(
      'operator accounts: who signs in to the inbox, their role and chatbots (talks to the running gateway)',
    );
  operators
    .command('add')
    .argument('<email>', 'their e-mail address: their sign-in links go there')
    .description('add an operator (the first admin: `chatbridge operators add you@example.com --role admin`)')
    .option('--name <name>', 'what the other operators see beside what they send (default: the address before @)')
    .option('--role <role>', `${OPERATOR_ROLES.join(' or ')} (default: operator)`)
    .option('--bots <ids>', `${BOTS_HELP} (default: all)`)
    .option('--telegram-ids <ids>', TELEGRAM_HELP)
    .action(async (email: string, options: AccountOptions) => {
      const input = { email, ...readAccountOptions(options) };
      const { operator } = await adminClient().addOperator(input);
      process.stdout.write(`Added ${who(operator)}: ${whatTheyDo(operator)}.\n`);
    });
  operators
    .command('list')
    .description('every operator account: name, e-mail, role, chatbots, live sessions')
    .action(async () => {
      process.stdout.write(describeOperators(await adminClient().operators()));
    });
  operators
    .command('change')
    .argument('<email>', "the operator's e-mail address")
    .description('change their name, chatbots or Telegram ids (fewer chatbots end their sessions)')
    .option('--name <name>', 'their display name')
    .option('--bots <ids>', BOTS_HELP)
    .option('--telegram-ids <ids>', TELEGRAM_HELP)
    .action(async (email: string, options: Omit<AccountOptions, 'role'>) => {
      const patch = readAccountOptions(options);
      if (Object.keys(patch).length === 0) throw new Error('Nothing to change: give --name, --bots or --telegram-ids.');
      const change = await adminClient().changeOperator(email, patch);
      process.stdout.write(`Changed ${who(change.operator)}: ${whatTheyDo(change.operator)}${ended(change)}.\n`);
    });
  operators
    .command('role')
    .argument('<email>', "the operator's e-mail address")
    .argument('<role>', OPERATOR_ROLES.join(' or '))
    .description('make them an operator or an admin (their sessions end: they sign in again)')
    .action(async (email: string, role: string) => {
      const change = await adminClient().changeOperator(email, { role: readRole(role, '<role>') });
      process.stdout.write(`${who(change.operator)} is now ${whatTheyDo(change.operator)}${ended(change)}.\n`);
    });
  operators
    .command('remove')
    .argument('<email>', "the operator's e-mail address")
    .description('remove an operator: their sessions end at once, in every gateway process')
    .action(async (email: string) => {
      const change = await adminClient().removeOperator(email);
      process.stdout.write(`Removed ${who(change.operator)}${ended(change)}.\n`);
    });
  operators
    .command('sessions')
    .argument('<email>', "the operator's e-mail address")
    .description('where they are signed in: each session with its device, address and times')
    .action(async (email: string) => {
      const { operator, sessions } = await adminClient().operatorSessions(email);
      process.stdout.write(describeSessions(operator, sessions));
    });
  operators
    .command('end-session')
    .argument('<email>', "the operator's e-mail address")
    .argument('<session-id>', 'as `chatbridge operators sessions <email>` shows it')
    .description('sign them out of one session (its open pages stop at once)')
    .action(async (email: string, sessionId: string) => {
      const { operator } = await adminClient().endOperatorSession(email, sessionId);
      process.stdout.write(`Ended session ${sessionId} of ${who(operator)}.\n`);
    });
  operators
    .command('audit')
    .description('the audit log, newest first: every change to an account and every sign-in')
    .option('--limit <n>', `how many entries, up to ${AUDIT_MAX_ENTRIES} (default: 100)`)
    .action(async (options: { limit?: string }) => {
      const limit = options.limit === undefined ? undefined : readLimit(options.limit);
      const entries = await adminClient().operatorsAudit(limit);
      process.stdout.write(
        entries.length === 0
          ? 'The audit log is empty.\n'
          : entries.map((entry) => `${describeEntry(entry)}\n`).join(''),
      );
    });
}

/** The options given, as the API takes them; each refused here, before anything is called, when it is not one. */
function readAccountOptions(options: AccountOptions): {
  name?: string;
  role?: OperatorRole;
  bots?: 'all' | string[];
  telegramIds?: string[];
} {
  return {
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.role !== undefined ? { role: readRole(options.role, '--role') } : {}),
    ...(options.bots !== undefined ? { bots: options.bots.trim() === 'all' ? 'all' : list(options.bots) } : {}),
    ...(options.telegramIds !== undefined ? { telegramIds: list(options.telegramIds) } : {}),
  };
}

function readRole(raw: string, what: string): OperatorRole {
  const role = OPERATOR_ROLES.find((known) => known === raw.trim().toLowerCase());
  if (!role) throw new Error(`${what} must be ${OPERATOR_ROLES.join(' or ')} (got "${raw}").`);
  return role;
}

function readLimit(raw: string): number {
  const limit = /^\s*[0-9]+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= AUDIT_MAX_ENTRIES))
    throw new Error(`--limit must be a whole number from 1 to ${AUDIT_MAX_ENTRIES} (got "${raw}").`);
  return limit;
}

/** "main, sales" → ["main", "sales"]; "" → []. */
function list(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function who(operator: OperatorView): string {
  return `${operator.name} (${operator.email})`;
}

/** "an operator of chatbots main, sales", "an admin of every chatbot", with their Telegram ids. */
function whatTheyDo(operator: OperatorView): string {
  const role = operator.role === 'admin' ? 'an admin' : 'an operator';
  const telegram = operator.telegramIds.length > 0 ? `, Telegram ids ${operator.telegramIds.join(', ')}` : '';
  return `${role} of ${chatbots(operator)}${telegram}`;
}

function chatbots(operator: OperatorView): string {
  if (operator.bots === 'all') return 'every chatbot';
  return `${operator.bots.length === 1 ? 'chatbot' : 'chatbots'} ${operator.bots.join(', ')}`;
}

function ended(change: OperatorChange): string {
  const count = change.endedSessions;
  return count === 0 ? '; no session was open' : `; ${count} ${count === 1 ? 'session' : 'sessions'} ended`;
}

/** The accounts as a table; the Telegram ids' column only when someone has one. */
export function describeOperators(operators: readonly OperatorView[]): string {
  if (operators.length === 0)
    return 'No operator accounts yet: `chatbridge operators add you@example.com --role admin` adds the first admin.\n';
  const telegram = operators.some((operator) => operator.telegramIds.length > 0);
  const header = ['NAME', 'E-MAIL', 'ROLE', 'CHATBOTS', 'SESSIONS', ...(telegram ? ['TELEGRAM IDS'] : [])];
  const rows = operators.map((operator) => [
    operator.name,
    operator.email,
    operator.role,
    operator.bots === 'all' ? 'all' : operator.bots.join(', '),
    String(operator.sessions ?? 0),
    ...(telegram ? [operator.telegramIds.join(', ')] : []),
  ]);
  return table([header, ...rows]);
}

export function describeSessions(operator: OperatorView, sessions: readonly AccountSessionInfo[]): string {
  if (sessions.length === 0) return `${who(operator)} is not signed in anywhere.\n`;
  const header = ['SESSION', 'DEVICE', 'ADDRESS', 'SIGNED IN', 'LAST SEEN', 'EXPIRES'];
  const rows = sessions.map((session) => [
    session.id,
    session.device || 'unknown',
    session.address || 'unknown',
    iso(session.signedInAt),
    iso(session.lastSeenAt),
    iso(session.expiresAt),
  ]);
  return `Sessions of ${who(operator)}:\n${table([header, ...rows])}`;
}

/** One line: when, what, who, on whom, how, from where. */
export function describeEntry(entry: AuditEntry): string {
  const target = entry.target ? ` → ${entry.target}` : '';
  const detail = entry.detail ? `: ${entry.detail}` : '';
  const address = entry.address ? ` (from ${entry.address})` : '';
  return `${iso(entry.at)}  ${entry.action}  by ${entry.actor}${target}${detail}${address}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Columns padded to their widest cell, two spaces apart. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => `${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd() + '\n')
    .join('');
}
