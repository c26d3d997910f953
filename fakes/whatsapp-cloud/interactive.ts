/**
 * Meta's rules for interactive messages: reply buttons and list messages, their limits in
 * constants with the page each comes from. A broken limit answers 131009 "Parameter value is
 * not valid", with details naming the parameter.
 */
import { invalidParameter, notValid } from './errors.js';
import { limited, object, onlyKeys, type Json } from './fields.js';

/** Reply buttons (copy of Meta's interactive reply buttons page): 3 buttons, titles 20, ids 256, body 1,024. */
export const MAX_BUTTONS = 3;
export const MAX_BUTTON_TITLE = 20;
export const MAX_BUTTON_ID = 256;
export const MAX_BUTTON_BODY = 1024;
/** List messages (copy of Meta's list messages page): 10 sections, 10 rows in all, button 20, row title 24, description 72, row id 200. */
export const MAX_LIST_SECTIONS = 10;
export const MAX_LIST_ROWS = 10;
export const MAX_LIST_BUTTON = 20;
export const MAX_ROW_TITLE = 24;
export const MAX_ROW_DESCRIPTION = 72;
export const MAX_ROW_ID = 200;
/** A list's body may be as long as a text message (Meta's list messages page; not in the notes). */
export const MAX_LIST_BODY = 4096;
/** Header and footer text of interactive messages (the notes give 60 for lists; reply buttons take the same). */
export const MAX_HEADER = 60;
export const MAX_FOOTER = 60;

export interface InteractiveContent {
  type: 'button' | 'list';
  header?: string;
  body: string;
  footer?: string;
  /** Reply buttons, in order. */
  buttons?: { id: string; title: string }[];
  /** A list's button label. */
  button?: string;
  sections?: { title?: string; rows: { id: string; title: string; description?: string }[] }[];
}

function optionalHeaderOrFooter(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  const part = object(value, name);
  if (name.endsWith("['footer']")) {
    onlyKeys(part, ['text'], name);
    return limited(part.text, `${name}['text']`, MAX_FOOTER);
  }
  onlyKeys(part, ['type', 'text', 'image', 'video', 'document'], name);
  if (part.type === 'text') return limited(part.text, `${name}['text']`, MAX_HEADER);
  if (part.type === 'image' || part.type === 'video' || part.type === 'document') return undefined;
  throw invalidParameter(`Param ${name}['type'] must be one of {TEXT, IMAGE, VIDEO, DOCUMENT}.`);
}

function buttons(action: Json): InteractiveContent['buttons'] {
  onlyKeys(action, ['buttons'], "interactive['action']");
  const list = action.buttons;
  if (!Array.isArray(list) || list.length === 0)
    throw notValid("The parameter interactive['action']['buttons'] is required (1 to 3 buttons).");
  if (list.length > MAX_BUTTONS)
    throw notValid(
      `Param interactive['action']['buttons'] must have at most ${MAX_BUTTONS} elements; it has ${list.length}.`,
    );
  const parsed = list.map((entry, index) => {
    const name = `interactive['action']['buttons'][${index}]`;
    const button = object(entry, name);
    onlyKeys(button, ['type', 'reply'], name);
    if (button.type !== 'reply') throw notValid(`Param ${name}['type'] must be "reply".`);
    const reply = object(button.reply, `${name}['reply']`);
    onlyKeys(reply, ['id', 'title'], `${name}['reply']`);
    return {
      id: limited(reply.id, `${name}['reply']['id']`, MAX_BUTTON_ID),
      title: limited(reply.title, `${name}['reply']['title']`, MAX_BUTTON_TITLE),
    };
  });
  if (new Set(parsed.map((b) => b.title)).size !== parsed.length) throw notValid('Buttons must have unique titles.');
  if (new Set(parsed.map((b) => b.id)).size !== parsed.length) throw notValid('Buttons must have unique ids.');
  return parsed;
}

function sections(action: Json): Pick<InteractiveContent, 'button' | 'sections'> {
  onlyKeys(action, ['button', 'sections'], "interactive['action']");
  const button = limited(action.button, "interactive['action']['button']", MAX_LIST_BUTTON);
  const list = action.sections;
  if (!Array.isArray(list) || list.length === 0)
    throw notValid("The parameter interactive['action']['sections'] is required.");
  if (list.length > MAX_LIST_SECTIONS)
    throw notValid(`Param interactive['action']['sections'] must have at most ${MAX_LIST_SECTIONS} elements.`);
  const parsed = list.map((entry, s) => {
    const name = `interactive['action']['sections'][${s}]`;
    const section = object(entry, name);
    onlyKeys(section, ['title', 'rows'], name);
    // Meta: a section title is required once there is more than one section.
    const title =
      list.length > 1
        ? limited(section.title, `${name}['title']`, MAX_ROW_TITLE)
        : section.title === undefined
          ? undefined
          : limited(section.title, `${name}['title']`, MAX_ROW_TITLE);
    if (!Array.isArray(section.rows) || section.rows.length === 0)
      throw notValid(`The parameter ${name}['rows'] is required.`);
    const rows = section.rows.map((rowEntry, r) => {
      const rowName = `${name}['rows'][${r}]`;
      const row = object(rowEntry, rowName);
      onlyKeys(row, ['id', 'title', 'description'], rowName);
      const description =
        row.description === undefined
          ? undefined
          : limited(row.description, `${rowName}['description']`, MAX_ROW_DESCRIPTION);
      return {
        id: limited(row.id, `${rowName}['id']`, MAX_ROW_ID),
        title: limited(row.title, `${rowName}['title']`, MAX_ROW_TITLE),
        ...(description !== undefined ? { description } : {}),
      };
    });
    return { ...(title !== undefined ? { title } : {}), rows };
  });
  const rows = parsed.flatMap((s) => s.rows);
  if (rows.length > MAX_LIST_ROWS)
    throw notValid(`A list message may have at most ${MAX_LIST_ROWS} rows in all sections; it has ${rows.length}.`);
  if (new Set(rows.map((r) => r.id)).size !== rows.length) throw notValid('List rows must have unique ids.');
  return { button, sections: parsed };
}

export function interactive(value: unknown): InteractiveContent {
  const body = object(value, 'interactive');
  onlyKeys(body, ['type', 'header', 'body', 'footer', 'action'], 'interactive');
  if (body.type !== 'button' && body.type !== 'list') {
    throw notValid(`Param interactive['type'] "${String(body.type)}" is not one the fake models (button, list).`);
  }
  const header = optionalHeaderOrFooter(body.header, "interactive['header']");
  const footer = optionalHeaderOrFooter(body.footer, "interactive['footer']");
  const bodyPart = object(body.body, "interactive['body']");
  onlyKeys(bodyPart, ['text'], "interactive['body']");
  const action = object(body.action, "interactive['action']");
  const content: InteractiveContent = {
    type: body.type,
    body: limited(
      bodyPart.text,
      "interactive['body']['text']",
      body.type === 'button' ? MAX_BUTTON_BODY : MAX_LIST_BODY,
    ),
    ...(header !== undefined ? { header } : {}),
    ...(footer !== undefined ? { footer } : {}),
  };
  return body.type === 'button' ? { ...content, buttons: buttons(action) } : { ...content, ...sections(action) };
}
