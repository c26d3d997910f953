/**
 * What a platform's markup brings to the rendering. The rest is the same for every
 * platform and stays in src/format: Markdown parsed once (parse.ts), a half-written
 * answer healed (partial.ts), laid out as styled runs (layout.ts) and split within the
 * limit (split.ts). A platform declares its renderer in its capabilities
 * (`Capabilities.markup`, written in its adapter's markdown.ts from the building
 * blocks the contract re-exports: serializeNested, serializeMarkers, the HTML helpers).
 */
import type { Mark, Run } from './styled.js';

/** What the layout does with what not every markup can show. */
export interface MarkupLayout {
  /** Links become link marks for `serialize`; otherwise the layout writes them out as "text (url)". */
  linkMarks: boolean;
  /** Which marks may appear inside link text ('none': the link text is written as plain text). */
  marksInLinks: 'all-but-code' | 'none';
  /**
   * Blockquotes become a quote mark; otherwise "> " line prefixes (verbatim runs). A quote
   * mark never nests and never holds a code block: those stay outside the quote.
   */
  quoteMark: boolean;
}

/** One platform's markup: how an answer laid out as styled runs is written and measured. */
export interface MarkupRenderer {
  /** Names the markup in logs and benchmarks, e.g. "telegram-html". */
  readonly name: string;
  readonly layout: Readonly<MarkupLayout>;
  /**
   * Styled runs → one complete message: what it opens it closes, so each chunk of a
   * split answer is valid on its own. Runs marked `verbatim` are markup the layout wrote
   * (the "> " of a quote): written as they are, never escaped.
   */
  serialize(runs: readonly Run[]): string;
  /** How long a rendered message is as the platform counts it (`Capabilities.maxMessageLength` applies to this). */
  measure(rendered: string): number;
  /**
   * True when `measure` of a serialized chunk always equals the length of its runs'
   * text: the platform counts the text after its markup is parsed (Telegram: tags free,
   * an entity one character), or there is no markup. The splitter then finds a cut from
   * the runs alone instead of serializing each candidate.
   */
  readonly countsVisibleText: boolean;
}

/** How one markup language writes each mark and escapes text: what serializeNested and serializeMarkers take. */
export interface MarkupSyntax {
  /** Text as the platform must receive it to show it as is. */
  escape(text: string): string;
  /** What opens a mark ('' for a mark the markup cannot show: its text is shown unstyled). */
  open(mark: Mark): string;
  close(mark: Mark): string;
}
