/**
 * A strict checker of Telegram "HTML style" messages, at least as strict as the
 * Bot API's parser for what the renderer produces: every `<` starts a known tag,
 * every `&` a known entity, tags are balanced and nested the way Telegram allows,
 * and the message has visible text. Returns the problems found (empty = valid).
 */

const ALLOWED_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'code',
  'pre',
  'a',
  'blockquote',
]);
const VERBATIM_TAGS = new Set(['code', 'pre']);
const TAG = /^<(\/?)([a-z]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/;
const ATTRIBUTE = /\s+([a-z-]+)="([^"]*)"/g;
const ENTITY = /^&(lt|gt|amp|quot|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/;

interface OpenTag {
  name: string;
  /** Visible characters written since it opened (pre's inner <code> must come first). */
  textSinceOpen: number;
}

export function telegramHtmlProblems(html: string): string[] {
  const problems: string[] = [];
  const stack: OpenTag[] = [];
  let visible = '';
  let i = 0;
  while (i < html.length) {
    const c = html[i] as string;
    if (c === '<') {
      const match = TAG.exec(html.slice(i));
      if (!match) {
        problems.push(`unescaped "<" at ${i}`);
        i++;
        continue;
      }
      const [whole, slash, name = '', attributes = ''] = match;
      i += whole.length;
      if (!ALLOWED_TAGS.has(name)) problems.push(`tag <${name}> is not supported`);
      if (slash) {
        const top = stack.pop();
        if (top?.name !== name) problems.push(`</${name}> closes <${top?.name ?? 'nothing'}>`);
        continue;
      }
      problems.push(...nestingProblems(name, attributes, stack));
      for (const [, attribute = '', value = ''] of attributes.matchAll(ATTRIBUTE)) {
        problems.push(...entityProblems(value).map((p) => `${p} in ${attribute}="${value}"`));
      }
      stack.push({ name, textSinceOpen: 0 });
      continue;
    }
    if (c === '>') problems.push(`unescaped ">" at ${i}`);
    if (c === '&') {
      const match = ENTITY.exec(html.slice(i));
      if (!match) {
        problems.push(`bad entity at ${i}: ${html.slice(i, i + 8)}`);
        i++;
        continue;
      }
      visible += 'x';
      i += match[0].length;
      for (const tag of stack) tag.textSinceOpen++;
      continue;
    }
    visible += c;
    for (const tag of stack) tag.textSinceOpen++;
    i++;
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.map((t) => t.name).join(', ')}`);
  if (visible.trim() === '') problems.push('no visible text');
  return problems;
}

function nestingProblems(name: string, attributes: string, stack: readonly OpenTag[]): string[] {
  const problems: string[] = [];
  const parent = stack[stack.length - 1];
  const inside = (tag: string): boolean => stack.some((t) => t.name === tag);
  const codeInPre = name === 'code' && parent?.name === 'pre' && parent.textSinceOpen === 0;
  if (stack.some((t) => VERBATIM_TAGS.has(t.name)) && !codeInPre) problems.push(`<${name}> inside code/pre`);
  if (name === 'a' && inside('a')) problems.push('link inside a link');
  if (name === 'code' && inside('a')) problems.push('code inside a link');
  if (name === 'blockquote' && inside('blockquote')) problems.push('nested blockquote');
  if (name === 'pre' && stack.length > 0) problems.push(`<pre> inside <${stack.map((t) => t.name).join('><')}>`);
  if (name === 'a' && !/^\s+href="[^"]+"$/.test(attributes))
    problems.push(`<a> needs exactly one href, got "${attributes}"`);
  if (name === 'code' && attributes && !(codeInPre && /^\s+class="language-[\w#+.-]+"$/.test(attributes))) {
    problems.push(`<code${attributes}> outside of <pre> or with a bad class`);
  }
  if (name !== 'a' && name !== 'code' && attributes) problems.push(`<${name}> takes no attributes`);
  return problems;
}

function entityProblems(value: string): string[] {
  const problems: string[] = [];
  for (let i = value.indexOf('&'); i !== -1; i = value.indexOf('&', i + 1)) {
    if (!ENTITY.test(value.slice(i))) problems.push(`bad entity at ${i}`);
  }
  return problems;
}
