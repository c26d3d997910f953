/**
 * Closing what an answer still being streamed has left open, so an intermediate
 * render is valid and shows no stray markers: the Markdown is completed, then
 * parsed as usual. Only the tail can be unfinished, so only the last block is
 * scanned for inline constructs (emphasis and code spans cannot cross blocks).
 *
 * - an open code fence: CommonMark closes it at the end of the document; a
 *   half-typed closing fence (a line of only "``") is dropped;
 * - `**bold`, `_it`, `~~gone`, `` `code ``: closers are appended (innermost first),
 *   or the opener is dropped when nothing follows it yet;
 * - markers with nothing after them (`text **`): dropped;
 * - `[text](htt` and `[text` and `[text]`: shown as just "text" until complete;
 * - a last line holding only a block marker (`-`, `1.`, `#`, `>`): dropped.
 */

const FENCE = /^(`{3,}|~{3,})(.*)$/;
/** Quote and list markers and indentation before a fence: LLMs put code blocks in lists and quotes. */
const CONTAINER_PREFIX = /^\s*(?:(?:>\s?|[-*+]\s+|\d{1,9}[.)]\s+)\s*)*/;
const BLOCK_START = /^ {0,3}([-*+]\s|\d{1,9}[.)]\s|#{1,6}(\s|$)|>)/;
const BARE_BLOCK_MARKER = /^\s*([-*+]|\d{1,9}[.)]|#{1,6}|>)\s*$/;

export function closeUnfinishedMarkdown(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: { char: string; length: number } | undefined;
  let regionStart = 0;
  let offset = 0;
  for (const line of lines) {
    const lineEnd = offset + line.length + 1;
    const fenceMatch = FENCE.exec(line.replace(CONTAINER_PREFIX, ''));
    if (fence) {
      if (
        fenceMatch &&
        fenceMatch[1]?.[0] === fence.char &&
        (fenceMatch[1]?.length ?? 0) >= fence.length &&
        !fenceMatch[2]?.trim()
      ) {
        fence = undefined;
        regionStart = lineEnd;
      }
    } else if (fenceMatch && !(fenceMatch[1]?.[0] === '`' && fenceMatch[2]?.includes('`'))) {
      fence = { char: fenceMatch[1]?.[0] ?? '`', length: fenceMatch[1]?.length ?? 3 };
    } else if (line.trim() === '') {
      regionStart = lineEnd;
    } else if (BLOCK_START.test(line)) {
      regionStart = offset;
    }
    offset = lineEnd;
  }

  const lastLine = lines[lines.length - 1] ?? '';
  if (fence) {
    const halfClosing =
      lines.length > 1 && new RegExp(`^\\${fence.char}+$`).test(lastLine.replace(CONTAINER_PREFIX, ''));
    return halfClosing ? markdown.slice(0, markdown.length - lastLine.length) : markdown;
  }
  if (BARE_BLOCK_MARKER.test(lastLine)) return markdown.slice(0, markdown.length - lastLine.length).trimEnd();
  if (regionStart >= markdown.length) return markdown;
  return markdown.slice(0, regionStart) + closeInline(markdown.slice(regionStart));
}

type Open =
  | { kind: 'emphasis'; char: string; length: number; at: number }
  | { kind: 'code'; length: number; at: number }
  | { kind: 'bracket'; length: number; at: number };

/** Completes the inline constructs of one block. */
function closeInline(text: string): string {
  let out = '';
  const stack: Open[] = [];
  let i = 0;

  /** Closes (or drops, when empty) the entries above `depth`, innermost first. */
  const closeAbove = (depth: number): void => {
    while (stack.length > depth) {
      const entry = stack.pop() as Open;
      const isEmpty = out.trimEnd().length <= entry.at + entry.length;
      if (entry.kind === 'bracket') {
        out = out.slice(0, entry.at) + out.slice(entry.at + entry.length);
      } else if (isEmpty) {
        out = out.slice(0, entry.at) + out.slice(entry.at + entry.length);
      } else if (entry.kind === 'code') {
        out += (out.endsWith('`') ? ' ' : '') + '`'.repeat(entry.length);
      } else {
        out = out.trimEnd() + entry.char.repeat(entry.length);
      }
    }
  };

  while (i < text.length) {
    const c = text[i] as string;
    const top = stack[stack.length - 1];
    if (top?.kind === 'code') {
      if (c === '`') {
        const run = runOf(text, i);
        if (run.length === top.length) stack.pop();
        out += run;
        i += run.length;
      } else {
        out += c;
        i++;
      }
      continue;
    }
    if (c === '\\') {
      if (i + 1 < text.length) out += text.slice(i, i + 2); // a lone trailing backslash is dropped
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = runOf(text, i);
      i += run.length;
      if (i >= text.length) continue; // dangling
      stack.push({ kind: 'code', length: run.length, at: out.length });
      out += run;
      continue;
    }
    if (c === '*' || c === '_' || c === '~') {
      const run = runOf(text, i);
      out += emphasisRun(text, i, run);
      i += run.length;
      continue;
    }
    if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      const opener = c === '!' ? '![' : '[';
      stack.push({ kind: 'bracket', length: opener.length, at: out.length });
      out += opener;
      i += opener.length;
      continue;
    }
    if (c === ']') {
      const depth = findLast(stack, (e) => e.kind === 'bracket');
      if (depth === -1) {
        out += c;
        i++;
        continue;
      }
      const bracket = stack[depth] as Open;
      closeAbove(depth + 1);
      stack.length = depth;
      const destinationEnd = text[i + 1] === '(' ? findClosingParen(text, i + 2) : -1;
      if (destinationEnd !== -1) {
        out += text.slice(i, destinationEnd + 1);
        i = destinationEnd + 1;
      } else if (i + 1 >= text.length || text[i + 1] === '(') {
        // `[text]` or `[text](htt`: show the text alone until the link is complete.
        out = out.slice(0, bracket.at) + out.slice(bracket.at + bracket.length);
        i = text.length;
      } else {
        out += c;
        i++;
      }
      continue;
    }
    out += c;
    i++;
  }
  closeAbove(0);
  // Trailing spaces mean nothing yet; marked would keep them in the last paragraph.
  return out.trimEnd();

  /** Handles a run of * _ ~ : closes what it can, opens what it may, drops it when dangling. */
  function emphasisRun(source: string, at: number, run: string): string {
    const char = run[0] as string;
    const before = at > 0 ? (source[at - 1] as string) : '\n';
    const after = source[at + run.length];
    // Unlike CommonMark, an intraword run (2*3) never opens here: until its closer
    // arrives, it is far more likely arithmetic or a filename than emphasis.
    const canOpen = after !== undefined && !/\s/.test(after) && !/\w/.test(before);
    const canClose = at > 0 && !/\s/.test(before) && (char !== '_' || after === undefined || !/\w/.test(after));
    let remaining = run.length;
    while (canClose && remaining > 0) {
      const depth = findLast(stack, (e) => e.kind === 'bracket' || (e.kind === 'emphasis' && e.char === char));
      const entry = stack[depth];
      if (!entry || entry.kind !== 'emphasis' || entry.length > remaining) break;
      stack.length = depth;
      remaining -= entry.length;
    }
    const closed = run.length - remaining;
    if (remaining === 0) return run;
    const tooLong = char === '~' ? remaining > 2 : remaining > 3;
    if (canOpen && !tooLong) {
      const openerAt = out.length + closed;
      if (char === '~' || remaining < 3) {
        stack.push({ kind: 'emphasis', char, length: remaining, at: openerAt });
      } else {
        stack.push(
          { kind: 'emphasis', char, length: 2, at: openerAt },
          { kind: 'emphasis', char, length: 1, at: openerAt + 2 },
        );
      }
      return run;
    }
    return after === undefined ? run.slice(0, closed) : run;
  }
}

function runOf(text: string, from: number): string {
  let end = from + 1;
  while (text[end] === text[from]) end++;
  return text.slice(from, end);
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}

/** Index of the `)` ending a link destination that starts at `from`, or -1 if it is not written yet. */
function findClosingParen(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return i;
      depth--;
    } else if (c === '\n' && text[i + 1] === '\n') return -1;
  }
  return -1;
}
