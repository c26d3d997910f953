/**
 * GET /inbox/assets/inbox.css: the inbox's stylesheet, served by the gateway itself (no CDN; the
 * CSP allows only the inbox's own style). Small enough to live here as text.
 */
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';

const CSS = `
:root { color-scheme: light dark; --line: #8884; --muted: #666; --accent: #1a5fb4; --alert: #a51d2d; }
@media (prefers-color-scheme: dark) { :root { --muted: #aaa; --accent: #78aeed; --alert: #ff7b7b; } }
* { box-sizing: border-box; }
body { font: 16px/1.45 system-ui, sans-serif; margin: 0; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem; }
.top { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; padding: 0.5rem 1rem; border-bottom: 1px solid var(--line); }
.top nav a { margin-right: 1rem; }
.top nav a[aria-current="page"] { font-weight: bold; }
.top .who { margin: 0; flex: 1; }
.top form { margin: 0; }
a { color: var(--accent); }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.15rem; }
.stacked { display: flex; flex-direction: column; gap: 0.35rem; max-width: 24rem; }
.stacked button { align-self: flex-start; margin-top: 0.5rem; }
input, textarea, button { font: inherit; }
input[type="text"], input[type="password"], textarea { padding: 0.4rem; border: 1px solid var(--muted); border-radius: 4px; }
button { padding: 0.4rem 1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button:focus-visible, a:focus-visible, textarea:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.hint { color: var(--muted); font-size: 0.875rem; margin: 0; }
.alert { color: var(--alert); font-weight: bold; border-left: 4px solid var(--alert); padding-left: 0.5rem; }
.waiting { list-style: none; padding: 0; }
.waiting > li { border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; margin-bottom: 0.75rem; }
.waiting > li > a { font-weight: bold; font-size: 1.05rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0.5rem 0 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.status { border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; }
.actions { display: flex; gap: 0.75rem; margin-top: 0.75rem; }
.actions form { margin: 0; }
.transcript { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; max-height: 60vh; overflow-y: auto; }
.entry { margin: 0.5rem 0; }
.entry .meta { margin: 0; color: var(--muted); font-size: 0.875rem; }
.entry .speaker { font-weight: bold; }
.entry .text { margin: 0.15rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.entry.user .speaker { color: var(--accent); }
.entry.event { color: var(--muted); font-style: italic; font-size: 0.875rem; text-align: center; }
.entry.note { border-left: 3px solid var(--muted); padding-left: 0.5rem; font-style: italic; }
.files { margin: 0.25rem 0 0; padding-left: 1.25rem; }
.photo { max-width: 16rem; max-height: 16rem; display: block; }
.reply { display: flex; flex-direction: column; gap: 0.35rem; margin-top: 1rem; }
.reply textarea { width: 100%; resize: vertical; }
.reply button { align-self: flex-end; }
.days { display: flex; gap: 1.5rem; margin: 0.5rem 0 1rem; }
.table-wrap { overflow-x: auto; }
.leads { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
.leads th, .leads td { border: 1px solid var(--line); padding: 0.35rem 0.5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
.leads ul { margin: 0; padding-left: 1rem; }
input[type="email"], select { font: inherit; padding: 0.4rem; border: 1px solid var(--muted); border-radius: 4px; }
details { margin-top: 1.5rem; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 0.5rem 0; }
.operator { border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; margin-bottom: 1rem; }
.operator h2 small { font-weight: normal; color: var(--muted); }
.inline { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.5rem 0; }
button.danger { background: var(--alert); border-color: var(--alert); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

const ETAG = `"${createHash('sha256').update(CSS).digest('base64url').slice(0, 16)}"`;

export function inboxStylesheet(): RequestHandler {
  return (req, res) => {
    res.set({
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'no-cache',
      ETag: ETAG,
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.get('if-none-match') === ETAG) return void res.status(304).end();
    res.send(CSS);
  };
}
