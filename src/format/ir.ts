/**
 * The Markdown intermediate representation: what an answer means, independent of
 * any platform. Parsed once (parse.ts), then laid out and serialized per
 * platform markup (markup.ts). Deliberately small: only what chat platforms can show.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong' | 'emphasis' | 'strike'; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export type TableAlign = 'left' | 'center' | 'right' | null;

export type Block =
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'heading'; depth: number; content: Inline[] }
  | { kind: 'code'; lang: string | undefined; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'table'; align: TableAlign[]; header: Inline[][]; rows: Inline[][][] }
  | { kind: 'rule' };

export interface ListItem {
  /** undefined for an ordinary item; true/false for a GFM task item. */
  checked: boolean | undefined;
  blocks: Block[];
}

export interface MarkdownDoc {
  blocks: Block[];
}
