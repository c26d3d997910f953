/**
 * What an operator wrote, formatted in the app (bold, italic, code, links: Telegram's message
 * entities), as standard Markdown, the handoff's one language. Plain text stays as typed (it is
 * Markdown too); formatting Markdown cannot say (underline, spoilers, mentions) is dropped and
 * its text kept. Entity offsets count UTF-16 code units, as JavaScript strings do.
 */
import type { MessageEntity } from 'grammy/types';

interface Marker {
  at: number;
  text: string;
  /** Closing markers come before opening ones at one place, and an inner entity closes first. */
  closes: boolean;
  /** The entity's length: an outer one opens first and closes last. */
  span: number;
}

function markersOf(entity: MessageEntity, text: string): [string, string] | undefined {
  switch (entity.type) {
    case 'bold':
      return ['**', '**'];
    case 'italic':
      return ['_', '_'];
    case 'strikethrough':
      return ['~~', '~~'];
    case 'code':
      return ['`', '`'];
    case 'pre': {
      const lang = entity.language ?? '';
      const content = text.slice(entity.offset, entity.offset + entity.length);
      return [`\`\`\`${lang}\n`, content.endsWith('\n') ? '```' : '\n```'];
    }
    case 'text_link':
      return ['[', `](${entity.url})`];
    default:
      return undefined;
  }
}

/** Nothing inside code is formatting: entities within a code or pre entity are dropped. */
function outsideCode(entities: readonly MessageEntity[]): MessageEntity[] {
  const code = entities.filter((e) => e.type === 'code' || e.type === 'pre');
  return entities.filter(
    (e) =>
      e.type === 'code' ||
      e.type === 'pre' ||
      !code.some((c) => e.offset >= c.offset && e.offset + e.length <= c.offset + c.length),
  );
}

export function entitiesToMarkdown(text: string, entities: readonly MessageEntity[] | undefined): string {
  if (!entities?.length) return text;
  const markers: Marker[] = [];
  for (const entity of outsideCode(entities)) {
    const pair = markersOf(entity, text);
    if (!pair) continue;
    // Markdown's emphasis may not begin or end with a space: the markers go around the trimmed text.
    const content = text.slice(entity.offset, entity.offset + entity.length);
    const lead = entity.type === 'pre' ? 0 : content.length - content.trimStart().length;
    const trail = entity.type === 'pre' ? 0 : content.length - content.trimEnd().length;
    const start = entity.offset + lead;
    const end = entity.offset + entity.length - trail;
    if (end <= start) continue;
    markers.push({ at: start, text: pair[0], closes: false, span: end - start });
    markers.push({ at: end, text: pair[1], closes: true, span: end - start });
  }
  markers.sort(
    (a, b) => a.at - b.at || Number(b.closes) - Number(a.closes) || (a.closes ? a.span - b.span : b.span - a.span),
  );
  let out = '';
  let from = 0;
  for (const marker of markers) {
    out += text.slice(from, marker.at) + marker.text;
    from = marker.at;
  }
  return out + text.slice(from);
}
