/**
 * MarkdownDoc → styled runs for one platform: block structure becomes text
 * (blank lines, bullets, numbers, quote prefixes), inline structure becomes marks.
 * What a platform cannot show (links in WhatsApp, formatting inside Slack link
 * text, code inside a Telegram link) is decided here, once, from what its markup
 * declares (`MarkupRenderer.layout`).
 */
import type { Block, Inline, ListItem, MarkdownDoc } from './ir.js';
import type { MarkupLayout } from './markup.js';
import { BOLD, CODE, ITALIC, QUOTE, STRIKE, hasMark, sameMark, type Mark, type Run } from './styled.js';
import { inlinePlainText, tableToText } from './table.js';

const BLOCK_GAP = '\n\n';
const BULLETS = ['• ', '◦ ', '▪ '];
const RULE = '———';
const LINKABLE = /^(https?:|mailto:|tg:)/i;
const SAFE_LANG = /^[\w#+.-]{1,32}$/;

export function layoutDoc(doc: MarkdownDoc, profile: Readonly<MarkupLayout>): Run[] {
  const layout = new Layout(profile);
  return mergeRuns(layout.blocks(doc.blocks, BLOCK_GAP, 0));
}

class Layout {
  constructor(private readonly profile: Readonly<MarkupLayout>) {}

  blocks(blocks: readonly Block[], gap: string, depth: number): Run[] {
    const out: Run[] = [];
    for (const block of blocks) {
      const runs = this.block(block, depth);
      if (!runs.some((r) => r.text.length > 0)) continue;
      if (out.length > 0) out.push({ text: gap, marks: [] });
      out.push(...runs);
    }
    return out;
  }

  private block(block: Block, depth: number): Run[] {
    switch (block.kind) {
      case 'paragraph':
        return this.inlines(block.content, [], false);
      case 'heading':
        return this.inlines(block.content, [BOLD], false);
      case 'code': {
        const lang = block.lang && SAFE_LANG.test(block.lang) ? block.lang : undefined;
        return [{ text: block.text.replace(/\n+$/, ''), marks: [{ kind: 'pre', lang }] }];
      }
      case 'table':
        return [
          { text: tableToText(block.align, block.header, block.rows), marks: [{ kind: 'pre', lang: undefined }] },
        ];
      case 'rule':
        return [{ text: RULE, marks: [] }];
      case 'quote':
        return this.quote(this.blocks(block.blocks, BLOCK_GAP, depth));
      case 'list':
        return this.list(block.items, block.ordered, block.start, depth);
    }
  }

  private list(items: readonly ListItem[], ordered: boolean, start: number, depth: number): Run[] {
    const out: Run[] = [];
    items.forEach((item, index) => {
      const bullet =
        item.checked !== undefined
          ? item.checked
            ? '☑ '
            : '☐ '
          : ordered
            ? `${start + index}. `
            : (BULLETS[depth % BULLETS.length] as string);
      const body = this.blocks(item.blocks, '\n', depth + 1);
      if (out.length > 0) out.push({ text: '\n', marks: [] });
      out.push(...prefixLines(body, bullet, ' '.repeat(bullet.length)));
    });
    return out;
  }

  private quote(runs: Run[]): Run[] {
    if (!this.profile.quoteMark) return prefixLines(runs, '> ', '> ', true);
    // A quote mark (Telegram's) cannot nest or hold a code block: those stay outside the quote,
    // and so does the blank line between such a block and the quoted text.
    const outside = (run: Run | undefined): boolean => !run || hasMark(run.marks, 'quote') || hasMark(run.marks, 'pre');
    return runs.map((run, i) => {
      const blankNextToOutside = run.text.trim() === '' && (outside(runs[i - 1]) || outside(runs[i + 1]));
      return outside(run) || blankNextToOutside ? run : { ...run, marks: [QUOTE, ...run.marks] };
    });
  }

  private inlines(nodes: readonly Inline[], marks: readonly Mark[], inLink: boolean): Run[] {
    const out: Run[] = [];
    for (const node of nodes) out.push(...this.inline(node, marks, inLink));
    return out;
  }

  private inline(node: Inline, marks: readonly Mark[], inLink: boolean): Run[] {
    switch (node.kind) {
      case 'text':
        return [{ text: node.text, marks }];
      case 'break':
        return [{ text: '\n', marks }];
      case 'code':
        return [{ text: node.text, marks: this.withMark(marks, CODE, inLink) }];
      case 'strong':
        return this.inlines(node.children, this.withMark(marks, BOLD, inLink), inLink);
      case 'emphasis':
        return this.inlines(node.children, this.withMark(marks, ITALIC, inLink), inLink);
      case 'strike':
        return this.inlines(node.children, this.withMark(marks, STRIKE, inLink), inLink);
      case 'link':
        return this.link(node.href, node.children, marks, inLink);
    }
  }

  private link(href: string, children: readonly Inline[], marks: readonly Mark[], inLink: boolean): Run[] {
    const linkable = LINKABLE.test(href) && !inLink;
    if (linkable && this.profile.linkMarks) {
      const linked = [...marks, { kind: 'link', href } satisfies Mark];
      if (this.profile.marksInLinks === 'none') return [{ text: inlinePlainText(children), marks: linked }];
      return this.inlines(children, linked, true);
    }
    const text = this.inlines(children, marks, inLink);
    if (!linkable) return text;
    const shown = inlinePlainText(children).trim();
    if (shown === '') return [{ text: href, marks }];
    if (shown === href || `mailto:${shown}` === href) return text;
    return [...text, { text: ` (${href})`, marks }];
  }

  private withMark(marks: readonly Mark[], mark: Mark, inLink: boolean): readonly Mark[] {
    if (hasMark(marks, mark.kind)) return marks;
    if (inLink && (this.profile.marksInLinks === 'none' || mark.kind === 'code')) return marks;
    return [...marks, mark];
  }
}

/** Puts `first` before the first line and `rest` before every later line (code blocks excepted). */
function prefixLines(runs: readonly Run[], first: string, rest: string, verbatim = false): Run[] {
  const out: Run[] = [{ text: first, marks: [], verbatim }];
  for (const run of runs) {
    if (hasMark(run.marks, 'pre') || !run.text.includes('\n')) {
      out.push(run);
      continue;
    }
    const lines = run.text.split('\n');
    lines.forEach((line, i) => {
      if (i > 0) out.push({ text: '\n', marks: [] }, { text: rest, marks: [], verbatim });
      if (line) out.push({ text: line, marks: run.marks });
    });
  }
  return out;
}

/** Joins neighbours with the same marks and drops empty runs, so serializers see fewer boundaries. */
function mergeRuns(runs: readonly Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    if (!run.text) continue;
    const last = out[out.length - 1];
    if (
      last &&
      !!last.verbatim === !!run.verbatim &&
      last.marks.length === run.marks.length &&
      last.marks.every((m, i) => sameMark(m, run.marks[i] as Mark))
    ) {
      out[out.length - 1] = { ...last, text: last.text + run.text };
    } else {
      out.push(run);
    }
  }
  return out;
}
