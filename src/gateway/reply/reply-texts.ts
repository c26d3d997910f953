/**
 * What the gateway itself says in a chat (Markdown, rendered per platform).
 * Each failure a user can meet gets one clear sentence that says what to do.
 */

/** The replies are English: numbers are grouped the English way ("20,000"). */
const count = (n: number): string => n.toLocaleString('en-US');

export const replies = {
  welcomeDefault: 'Hello! Ask me anything, and I will do my best to help.',
  upstreamDown: 'The assistant is not reachable right now; please try again in a moment.',
  upstreamWaiting:
    'The assistant is not reachable right now. Your message is kept, and I will answer it as soon as the assistant is back.',
  answerCutOff: 'The assistant stopped before finishing this answer; please ask again in a moment.',
  poisonMessage: (tries: number) =>
    `This message could not be answered after ${tries} tries; please send it again differently (shorter, or in other words).`,
  upstreamRefused: 'The assistant could not answer this message; please rephrase it or try again later.',
  internalError: 'Something went wrong on our side while answering; please try again in a moment.',
  rateLimitedDefault: 'You are sending messages too quickly; please wait a moment and try again.',
  monthlyLimit: 'This assistant has reached its message limit for this month; please try again next month.',
  answerDelayed:
    'I got your message. A problem on our side is holding up the answer; it will come here as soon as that is fixed, no need to send it again.',
  queueFull: (waiting: number) => `You have ${waiting} messages waiting; please wait for the answers.`,
  /** `limit` and `length` in the characters the service counts (src/upstream/limits.ts). */
  messageTooLong: (limit: number, length: number) =>
    `Your message is too long: I can read up to ${count(limit)} characters at a time, and it has ${count(length)}. Please shorten it, or send it in parts.`,
  nothingToAnswer: 'I can only read text messages here (and images or voice notes when they are enabled).',
  staleButton: 'That button no longer works; please send the command again.',
  resetDone: 'Started a new conversation. Your next message begins with a clean slate.',
  unknownCommand: (name: string, help: string) => `I don't know the command /${name}.\n\n${help}`,
};
