/**
 * Just enough of RFC 5322 / MIME to read what nodemailer sends: unfolded
 * headers, encoded-word subjects, multipart bodies, quoted-printable and
 * base64 parts in UTF-8. (mailparser does not install with this npm registry.)
 */

export interface ParsedMail {
  headers: Map<string, string>;
  subject: string;
  text: string;
  html: string;
  /** Parts sent as attachments (Content-Disposition: attachment), decoded as UTF-8 text. */
  attachments: { filename: string; contentType: string; content: string }[];
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

export function parseMail(raw: string): ParsedMail {
  const root = splitPart(raw);
  const leaves = flatten(root);
  const isAttachment = (leaf: Part) => /^attachment/i.test(leaf.headers.get('content-disposition') ?? '');
  const find = (type: string) => leaves.find((leaf) => !isAttachment(leaf) && contentType(leaf).type === type);
  const text = find('text/plain');
  const html = find('text/html');
  return {
    headers: root.headers,
    subject: decodeWords(root.headers.get('subject') ?? ''),
    text: text ? decodeBody(text) : '',
    html: html ? decodeBody(html) : '',
    attachments: leaves.filter(isAttachment).map((leaf) => ({
      filename: decodeWords(/filename="?([^";]+)"?/i.exec(leaf.headers.get('content-disposition') ?? '')?.[1] ?? ''),
      contentType: contentType(leaf).type,
      content: decodeBody(leaf),
    })),
  };
}

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  let last = '';
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && last) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    headers.set(last, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function contentType(part: Part): { type: string; boundary?: string; charset?: string } {
  const value = part.headers.get('content-type') ?? 'text/plain';
  const type = value.split(';')[0]!.trim().toLowerCase();
  const param = (name: string) => new RegExp(`${name}="?([^";]+)"?`, 'i').exec(value)?.[1];
  const boundary = param('boundary');
  const charset = param('charset');
  return { type, ...(boundary ? { boundary } : {}), ...(charset ? { charset } : {}) };
}

function flatten(part: Part): Part[] {
  const { type, boundary } = contentType(part);
  if (!type.startsWith('multipart/') || !boundary) return [part];
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections
    .filter((section) => !section.startsWith('--'))
    .flatMap((section) => flatten(splitPart(section.replace(/^\n/, ''))));
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body = part.body.replace(/\n$/, '');
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words; the space between two encoded words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_match, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
