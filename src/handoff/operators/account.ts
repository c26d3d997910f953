/**
 * An operator account: a person the gateway knows, by e-mail address, with what they may do (their role) and which
 * chatbots' conversations they see. What every door checks a person against: the inbox's sessions, the admin API,
 * and the operators' platforms (a Slack user by e-mail, a Telegram user by the ids listed here).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * - **operator**: answers, claims, hands back, reads the leads of the chatbots they see.
 * - **admin**: also manages operators and reads the audit log; sees every chatbot whatever `bots` says.
 */
export type OperatorRole = 'operator' | 'admin';
export const OPERATOR_ROLES: readonly OperatorRole[] = ['operator', 'admin'];

export interface OperatorAccount {
  /** Stable and short (`op_` and 12 letters or digits): what a transcript keeps, so a new display name shows everywhere. */
  id: string;
  /** Lower case: the one address their sign-in links go to, and the key they are found by. */
  email: string;
  /** What the other operators see beside what they send. */
  name: string;
  role: OperatorRole;
  /** The chatbots (bot ids) whose conversations they see; an admin sees every one. */
  bots: 'all' | readonly string[];
  /** Telegram user ids that are this person in an operators' forum (a Telegram account has no e-mail to match). */
  telegramIds: readonly string[];
  createdAt: number;
  /**
   * Bumped by every change that takes something away (the role, the chatbots): a session carries the value it was made
   * with, and one made before the change is refused even on a replica that has not heard of it yet.
   */
  epoch: number;
}

/** What an admin gives to add an operator, or to change one (every field but the address may change). */
export interface OperatorInput {
  email: string;
  name?: string;
  role?: OperatorRole;
  bots?: 'all' | readonly string[];
  telegramIds?: readonly string[];
}

export const OPERATOR_NAME_MAX = 60;
const EMAIL_MAX = 254;

const emailSchema = z.email().max(EMAIL_MAX);

/** The address as accounts are keyed (trimmed, lower case), or null when it is not an e-mail address. */
export function normalEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return emailSchema.safeParse(email).success ? email : null;
}

export function newAccountId(): string {
  // 12 base32 characters: 60 bits, unique among a company's operators with room to spare.
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return `op_${[...randomBytes(12)].map((byte) => alphabet[byte % 32]).join('')}`;
}

/** Why an input cannot make or change an account, naming the field; null when it can. */
export function inputProblem(input: Partial<OperatorInput>, knownBots: readonly string[]): string | null {
  if (input.email !== undefined && normalEmail(input.email) === null)
    return `"${input.email}" is not an e-mail address (the operator's sign-in links go to it).`;
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === '' || name.length > OPERATOR_NAME_MAX || /\p{Cc}/u.test(name))
      return `The display name has 1 to ${OPERATOR_NAME_MAX} characters, on one line.`;
  }
  if (input.role !== undefined && !OPERATOR_ROLES.includes(input.role))
    return `The role is ${OPERATOR_ROLES.map((role) => `"${role}"`).join(' or ')}, not "${String(input.role)}".`;
  if (input.bots !== undefined && input.bots !== 'all') {
    if (input.bots.length === 0) return 'An operator sees at least one chatbot: name bot ids, or "all".';
    const unknown = input.bots.filter((bot) => !knownBots.includes(bot));
    if (unknown.length > 0)
      return `No bot ${unknown.map((bot) => `"${bot}"`).join(', ')} is configured; the bots are ${knownBots.map((bot) => `"${bot}"`).join(', ')}.`;
  }
  const badId = input.telegramIds?.find((id) => !/^[1-9][0-9]{0,19}$/.test(id));
  if (badId !== undefined) return `"${badId}" is not a Telegram user id (digits, as Telegram's getUpdates shows it).`;
  return null;
}

/** What an admin sees whatever the account says: every chatbot. */
export function visibleBots(account: Pick<OperatorAccount, 'role' | 'bots'>): 'all' | readonly string[] {
  return account.role === 'admin' ? 'all' : account.bots;
}

export function encodeAccount(account: OperatorAccount): string {
  return JSON.stringify(account);
}

const storedSchema = z.object({
  id: z.string().regex(/^op_[a-z2-7]{12}$/),
  email: z.string(),
  name: z.string(),
  role: z.enum(['operator', 'admin']),
  bots: z.union([z.literal('all'), z.array(z.string())]),
  telegramIds: z.array(z.string()),
  createdAt: z.number(),
  epoch: z.number().int(),
});

/** An account as the store holds it, or null for a value that is none (written by hand, or by a future version). */
export function decodeAccount(raw: string): OperatorAccount | null {
  try {
    const parsed = storedSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
