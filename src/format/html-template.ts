/**
 * The one way the project writes HTML (the inbox, the hand-back pages, the handoff e-mails, the
 * WhatsApp link page): templates in which every interpolated value is escaped unless it is markup
 * already (an Html made by this same template), so a user's text or an operator's name can never
 * become markup by forgetting one call.
 */
import { escapeHtml } from './html.js';

/**
 * Markup. Made by `html` templates; `new Html(markup)` vouches for markup written elsewhere, and is
 * only for what no user can shape (a library's SVG).
 */
export class Html {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/** What a template takes: text (escaped), markup, lists of either; nothing for null, undefined or false. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(markup);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}
