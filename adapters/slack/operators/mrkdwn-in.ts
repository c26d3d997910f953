/**
 * What an operator wrote in Slack (a message's `text`, Slack's mrkdwn) as standard Markdown,
 * which the handoff sends to the user in their platform's markup: `*bold*` → `**bold**`,
 * `~gone~` → `~~gone~~`, `<url|label>` → `[label](url)`, mentions as @id / #channel, and
 * Slack's three entities decoded. Code spans and blocks are left as they are (`_italic_`
 * means the same in both).
 */

/** Slack's escaped characters (& < >), decoded last so a decoded `<` is never read as a link. */
function decodeEntities(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** `<…>` tokens: links, user and channel mentions, special mentions. */
function convertTokens(text: string): string {
  return text.replace(/<([^<>]+)>/g, (_whole, inner: string) => {
    const [target = '', label] = inner.split('|', 2);
    if (target.startsWith('@')) return `@${label ?? target.slice(1)}`;
    if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
    if (target.startsWith('!')) return `@${label ?? target.slice(1).split('^')[0]}`;
    if (target.startsWith('mailto:')) return label ?? target.slice('mailto:'.length);
    return label && label !== target ? `[${label}](${target})` : target;
  });
}

function convertMarkers(text: string): string {
  return (
    text
      // A marker counts next to a word, with none of its kind inside (Slack's own rule).
      .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,!?:;])/g, '$1**$2**')
      .replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s).,!?:;])/g, '$1~~$2~~')
  );
}

export function mrkdwnToMarkdown(text: string): string {
  // Odd pieces are code (``` blocks or ` spans), kept as written.
  return text
    .split(/(```[\s\S]*?```|`[^`\n]*`)/g)
    .map((piece, index) =>
      index % 2 === 1 ? decodeEntities(piece) : decodeEntities(convertMarkers(convertTokens(piece))),
    )
    .join('');
}
