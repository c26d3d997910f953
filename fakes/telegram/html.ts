/**
 * Telegram's `parse_mode: "HTML"` parser, as strict as the real one (which is
 * tdlib's `parse_html`): only the documented tags, balanced, attributes parsed,
 * entities decoded. Produces the visible text and the message entities with
 * UTF-16 offsets, or throws `HtmlParseError` with Telegram's wording.
 */

export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
}

export interface ParsedText {
  text: string;
  entities: MessageEntity[];
}

/** The description after "Bad Request: can't parse entities: ". */
export class HtmlParseError extends Error {}

const TAG_TO_ENTITY: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  span: 'spoiler',
  'tg-spoiler': 'spoiler',
  a: 'text_link',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
  'tg-emoji': 'custom_emoji',
};

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

interface OpenTag {
  name: string;
  attributes: Map<string, string>;
  startOffset: number;
}

/** Decodes `&...;` at `i`; returns null when it is not an entity (then '&' is literal, as in Telegram). */
function decodeEntity(source: string, i: number): { char: string; end: number } | null {
  const semicolon = source.indexOf(';', i);
  if (semicolon < 0 || semicolon - i > 10) return null;
  const body = source.slice(i + 1, semicolon);
  const named = NAMED_ENTITIES[body];
  if (named !== undefined) return { char: named, end: semicolon + 1 };
  const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(body);
  if (!numeric) return null;
  const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2] ?? '', 10);
  if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return null;
  return { char: String.fromCodePoint(code), end: semicolon + 1 };
}

function byteOffset(source: string, i: number): number {
  return Buffer.byteLength(source.slice(0, i), 'utf8');
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r';

/** Parses ` name="value" name2=value2 flag` up to '>'; returns the attributes and the index after '>'. */
function parseAttributes(
  source: string,
  i: number,
  tagName: string,
  tagStart: number,
): { attributes: Map<string, string>; end: number } {
  const attributes = new Map<string, string>();
  const unclosed = (): never => {
    throw new HtmlParseError(`Unclosed start tag "${tagName}" at byte offset ${byteOffset(source, tagStart)}`);
  };
  for (;;) {
    while (isSpace(source[i])) i++;
    if (i >= source.length) unclosed();
    if (source[i] === '>') return { attributes, end: i + 1 };
    const nameStart = i;
    while (i < source.length && /[a-zA-Z0-9_-]/.test(source[i] ?? '')) i++;
    const name = source.slice(nameStart, i).toLowerCase();
    if (name === '') {
      throw new HtmlParseError(`Empty attribute name in the tag "${tagName}" at byte offset ${byteOffset(source, i)}`);
    }
    while (isSpace(source[i])) i++;
    if (source[i] !== '=') {
      attributes.set(name, '');
      continue;
    }
    i++;
    while (isSpace(source[i])) i++;
    if (i >= source.length) unclosed();
    let value: string;
    const quote = source[i];
    if (quote === '"' || quote === "'") {
      const close = source.indexOf(quote, i + 1);
      if (close < 0) unclosed();
      value = source.slice(i + 1, close);
      i = close + 1;
    } else {
      const valueStart = i;
      while (i < source.length && !isSpace(source[i]) && source[i] !== '>') i++;
      value = source.slice(valueStart, i);
    }
    attributes.set(
      name,
      value.replace(/&(lt|gt|amp|quot);/g, (_m, n: string) => NAMED_ENTITIES[n] ?? ''),
    );
  }
}

function entityFor(tag: OpenTag, endOffset: number, source: string, tagStartIndex: number): MessageEntity | null {
  const length = endOffset - tag.startOffset;
  if (length <= 0) return null; // Telegram silently drops empty entities
  const entity: MessageEntity = { type: TAG_TO_ENTITY[tag.name] ?? 'unknown', offset: tag.startOffset, length };
  if (tag.name === 'a') {
    const href = tag.attributes.get('href');
    if (href === undefined || href === '') return null; // an <a> without href is plain text
    entity.url = href;
  }
  if (tag.name === 'blockquote' && tag.attributes.has('expandable')) entity.type = 'expandable_blockquote';
  if (tag.name === 'tg-emoji') {
    const id = tag.attributes.get('emoji-id');
    if (!id)
      throw new HtmlParseError(
        `Custom emoji entity must contain a valid custom emoji identifier at byte offset ${byteOffset(source, tagStartIndex)}`,
      );
    entity.custom_emoji_id = id;
  }
  if (tag.name === 'code') {
    const language = /^language-(.+)$/.exec(tag.attributes.get('class') ?? '')?.[1];
    if (language) entity.language = language;
  }
  return entity;
}

/** `<pre><code class="language-x">` is one pre entity with a language, as Telegram merges them. */
function mergePreCode(entities: MessageEntity[]): MessageEntity[] {
  const merged: MessageEntity[] = [];
  for (const entity of entities) {
    const pre =
      entity.type === 'code' && entity.language
        ? entities.find((e) => e.type === 'pre' && e.offset === entity.offset && e.length === entity.length)
        : undefined;
    if (pre) {
      pre.language = entity.language;
      continue;
    }
    merged.push(entity);
  }
  return merged;
}

/** Telegram strips leading/trailing whitespace of the message and shifts entities accordingly. */
function trimText(text: string, entities: MessageEntity[]): ParsedText {
  const lead = text.length - text.trimStart().length;
  const trimmed = text.trim();
  const shifted = entities
    .map((e) => {
      const start = Math.max(0, e.offset - lead);
      const end = Math.min(trimmed.length, e.offset + e.length - lead);
      return { ...e, offset: start, length: end - start };
    })
    .filter((e) => e.length > 0);
  return { text: trimmed, entities: shifted };
}

export function parseTelegramHtml(source: string): ParsedText {
  let text = '';
  const entities: MessageEntity[] = [];
  const stack: OpenTag[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '&') {
      const decoded = decodeEntity(source, i);
      text += decoded ? decoded.char : '&';
      i = decoded ? decoded.end : i + 1;
      continue;
    }
    if (c !== '<') {
      text += c;
      i++;
      continue;
    }
    const tagStart = i;
    if (source[i + 1] === '/') {
      const close = source.indexOf('>', i);
      if (close < 0) throw new HtmlParseError(`Unclosed end tag at byte offset ${byteOffset(source, tagStart)}`);
      const name = source
        .slice(i + 2, close)
        .trim()
        .toLowerCase();
      const open = stack.pop();
      if (!open) throw new HtmlParseError(`Unexpected end tag at byte offset ${byteOffset(source, tagStart)}`);
      if (open.name !== name) {
        throw new HtmlParseError(
          `Unmatched end tag at byte offset ${byteOffset(source, tagStart)}, expected "</${open.name}>", found "</${name}>"`,
        );
      }
      const entity = entityFor(open, text.length, source, tagStart);
      if (entity) entities.push(entity);
      i = close + 1;
      continue;
    }
    i++;
    const nameStart = i;
    while (i < source.length && !isSpace(source[i]) && source[i] !== '>') i++;
    if (i >= source.length)
      throw new HtmlParseError(`Unclosed start tag at byte offset ${byteOffset(source, tagStart)}`);
    const name = source.slice(nameStart, i).toLowerCase();
    if (!(name in TAG_TO_ENTITY)) {
      throw new HtmlParseError(`Unsupported start tag "${name}" at byte offset ${byteOffset(source, tagStart)}`);
    }
    const { attributes, end } = parseAttributes(source, i, name, tagStart);
    if (name === 'span' && attributes.get('class') !== 'tg-spoiler') {
      throw new HtmlParseError(
        `Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(source, tagStart)}`,
      );
    }
    stack.push({ name, attributes, startOffset: text.length });
    i = end;
  }
  const unclosed = stack.pop();
  if (unclosed) throw new HtmlParseError(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return trimText(text, mergePreCode(entities));
}

/** Plain text (no parse_mode): only trimming applies. */
export function parsePlainText(source: string): ParsedText {
  return { text: source.trim(), entities: [] };
}
