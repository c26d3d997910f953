/**
 * Rules of the Chatbot Service that a caller can check before asking, so that a user
 * hears the rule itself instead of the service's refusal.
 */

/**
 * The longest ClientAsk `content`, in characters as `clientAskContentLength` counts them.
 * docs/chatbot-service-api.md §11 (Limits): the published API gives no limit; the embedded
 * service (src/service, whose default this is) refuses a longer `content` with a 400 naming
 * it, before any other work. The gateway holds every service to this one rule, so a user
 * gets the same clear reply whichever service answers.
 */
export const CLIENT_ASK_CONTENT_MAX_CHARS = 20_000;

/**
 * Characters as the service counts them: Unicode code points (its zod `max()` on a string
 * counts a surrogate pair, e.g. an emoji, as one, and a lone surrogate as one). Counting
 * UTF-16 units instead would refuse a message of emoji the service takes.
 */
export function clientAskContentLength(content: string): number {
  let count = 0;
  // A string's iterator yields code points; a lone surrogate comes out on its own.
  for (const _codePoint of content) count++;
  return count;
}

/** Whether the service would refuse `content` as too long. */
export function isClientAskContentTooLong(content: string): boolean {
  // A code point is one or two UTF-16 units: a string within the limit in units is within it in code points.
  return (
    content.length > CLIENT_ASK_CONTENT_MAX_CHARS && clientAskContentLength(content) > CLIENT_ASK_CONTENT_MAX_CHARS
  );
}
