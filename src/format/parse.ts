/**
 * Markdown → MarkdownDoc, parsed once per answer.
 *
 * Why marked's lexer: it is small, has no dependencies, is actively maintained,
 * speaks CommonMark + GFM (tables, ~~strike~~, autolinks, task lists) out of the
 * box, and lexes a 4 KB answer in a fraction of a millisecond, which matters
 * because streamed answers are re-rendered every second. (micromark/mdast is more
 * exact but several times slower and a dozen packages.) Only its token tree is
 * used; the HTML renderer is not, so nothing of marked leaks past this file.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import type { Block, Inline, ListItem, MarkdownDoc, TableAlign } from './ir.js';

const LEXER_OPTIONS = { gfm: true, breaks: false } as const;

export function parseMarkdown(markdown: string): MarkdownDoc {
  const tokens = Lexer.lex(markdown, LEXER_OPTIONS);
  return { blocks: toBlocks(tokens) };
}

function toBlocks(tokens: readonly Token[]): Block[] {
  const blocks: Block[] = [];
  for (const token of tokens) {
    const block = toBlock(token);
    if (block) blocks.push(block);
  }
  return blocks;
}

function toBlock(token: Token): Block | undefined {
  switch (token.type) {
    case 'paragraph':
    case 'text': {
      const t = token as Tokens.Paragraph | Tokens.Text;
      return { kind: 'paragraph', content: t.tokens ? toInlines(t.tokens) : [textNode(t.text)] };
    }
    case 'heading': {
      const t = token as Tokens.Heading;
      return { kind: 'heading', depth: t.depth, content: toInlines(t.tokens) };
    }
    case 'code': {
      const t = token as Tokens.Code;
      const lang = t.lang?.trim().split(/\s+/)[0];
      return { kind: 'code', lang: lang ? lang : undefined, text: t.text };
    }
    case 'list': {
      const t = token as Tokens.List;
      return {
        kind: 'list',
        ordered: t.ordered,
        start: typeof t.start === 'number' ? t.start : 1,
        items: t.items.map(toListItem),
      };
    }
    case 'blockquote':
      return { kind: 'quote', blocks: toBlocks((token as Tokens.Blockquote).tokens) };
    case 'table': {
      const t = token as Tokens.Table;
      return {
        kind: 'table',
        align: t.align.map((a): TableAlign => a),
        header: t.header.map((cell) => toInlines(cell.tokens)),
        rows: t.rows.map((row) => row.map((cell) => toInlines(cell.tokens))),
      };
    }
    case 'hr':
      return { kind: 'rule' };
    case 'html': {
      // Raw HTML from the model is shown as the text it is, never interpreted.
      const text = (token as Tokens.HTML).text.trim();
      return text ? { kind: 'paragraph', content: [textNode(text)] } : undefined;
    }
    default:
      // space, def (link reference definitions) and unknown extensions show nothing.
      return undefined;
  }
}

function toListItem(item: Tokens.ListItem): ListItem {
  const tokens = item.tokens.filter((t) => t.type !== 'checkbox');
  return { checked: item.task ? item.checked === true : undefined, blocks: toBlocks(tokens) };
}

function toInlines(tokens: readonly Token[]): Inline[] {
  const inlines: Inline[] = [];
  for (const token of tokens) appendInline(inlines, token);
  return inlines;
}

function appendInline(out: Inline[], token: Token): void {
  switch (token.type) {
    case 'text': {
      const t = token as Tokens.Text;
      if (t.tokens && t.tokens.length > 0) for (const child of t.tokens) appendInline(out, child);
      else out.push(textNode(decodeEntities(t.text)));
      return;
    }
    case 'escape':
      out.push(textNode((token as Tokens.Escape).text));
      return;
    case 'strong':
      out.push({ kind: 'strong', children: toInlines((token as Tokens.Strong).tokens) });
      return;
    case 'em':
      out.push({ kind: 'emphasis', children: toInlines((token as Tokens.Em).tokens) });
      return;
    case 'del':
      out.push({ kind: 'strike', children: toInlines((token as Tokens.Del).tokens) });
      return;
    case 'codespan':
      out.push({ kind: 'code', text: (token as Tokens.Codespan).text });
      return;
    case 'br':
      out.push({ kind: 'break' });
      return;
    case 'link': {
      const t = token as Tokens.Link;
      out.push({ kind: 'link', href: decodeEntities(t.href), children: toInlines(t.tokens) });
      return;
    }
    case 'image': {
      // Chat messages cannot inline an image; show it as a link to it.
      const t = token as Tokens.Image;
      const children = t.text ? [textNode(decodeEntities(t.text))] : [textNode(t.href)];
      out.push({ kind: 'link', href: decodeEntities(t.href), children });
      return;
    }
    case 'html': {
      const html = (token as Tokens.Tag).text;
      if (/^<br\s*\/?>$/i.test(html)) out.push({ kind: 'break' });
      else out.push(textNode(html));
      return;
    }
    default:
      if (typeof token.raw === 'string' && token.raw) out.push(textNode(token.raw));
  }
}

function textNode(text: string): Inline {
  return { kind: 'text', text };
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/**
 * marked resolves numeric character references but leaves named ones (`&amp;`)
 * as written, expecting an HTML renderer to pass them through; we render to
 * other formats, so the common ones are resolved here.
 */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}
