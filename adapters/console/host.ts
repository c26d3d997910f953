import type { ConversationRef } from '../../src/contract.js';

/**
 * What the console needs from the gateway around it, given by the composition root once
 * the gateway and its handoff exist (an adapter imports nothing but the contract). At a
 * terminal the user and the operator are the same person, so the console may hand its
 * own conversation back to the bot.
 */
export interface ConsoleHost {
  /** Whether every message accepted from the conversation is answered (nothing left in its queue). */
  answered(conversation: ConversationRef): Promise<boolean>;
  /** Whether the conversation is with a person (handed off, the bot quiet). */
  withPerson(conversation: ConversationRef): Promise<boolean>;
  /** Hands the conversation back to the bot (the gateway tells the user); false when it was not with a person. */
  resume(conversation: ConversationRef): Promise<boolean>;
}
