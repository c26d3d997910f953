/**
 * The inbox page's script, served as /inbox/assets/inbox.js (script.ts). Pages work without it
 * (forms POST and redirect back); with it they update live and Enter sends a reply.
 *
 * A classic script for `<script defer>`: no import or export, so everything is inside one block to
 * keep it out of the page's globals. Type-checked with the DOM library by tsconfig.page.json, apart
 * from the gateway's code (which must not see browser globals).
 *
 * Page conventions (the server renders them): `<body data-events="…">` names the SSE stream;
 * elements with `data-live` and an id are the parts a change can alter; the reply box is
 * `<textarea id="reply">` in `<form id="reply-form">`.
 */
{
  /** Changes that arrive together (a burst from one turn) cost one refresh. */
  const REFRESH_DEBOUNCE_MS = 100;
  /** After the server refused the stream (the process stopping, a session gone), try again, slower each time. */
  const RECONNECT_FIRST_MS = 1_000;
  const RECONNECT_MAX_MS = 30_000;

  let refreshTimer: number | undefined;
  let refreshing = false;
  let refreshAgain = false;

  const scheduleRefresh = (): void => {
    window.clearTimeout(refreshTimer);
    refreshTimer = window.setTimeout(() => void refresh(), REFRESH_DEBOUNCE_MS);
  };

  /** Fetches this page again and puts its live regions in place of the ones shown. */
  const refresh = async (): Promise<void> => {
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = true;
    try {
      const response = await fetch(location.href, {
        credentials: 'same-origin',
        cache: 'no-store',
        headers: { 'X-Inbox-Refresh': '1' },
      });
      if (response.status >= 500) return;
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
      const regions = [...document.querySelectorAll<HTMLElement>('[data-live][id]')];
      // The page no longer is what it was (a session that expired shows the sign-in form): show what the server says.
      if (!response.ok || regions.some((region) => !fresh.getElementById(region.id)?.hasAttribute('data-live'))) {
        location.reload();
        return;
      }
      for (const region of regions) update(region, fresh.getElementById(region.id)!);
    } catch {
      // Offline for a moment: the next change, or the stream's reconnect, refreshes again.
    } finally {
      refreshing = false;
      if (refreshAgain) {
        refreshAgain = false;
        scheduleRefresh();
      }
    }
  };

  /** Makes `region` show what `fresh` holds, keeping its scroll at the bottom when it was there. */
  const update = (region: HTMLElement, fresh: HTMLElement): void => {
    const stuckToBottom = region.scrollHeight - region.scrollTop - region.clientHeight < 8;
    morph(region, fresh);
    if (stuckToBottom) region.scrollTop = region.scrollHeight;
  };

  /**
   * Changes `current` into `fresh` in place, node by node, touching only what differs: a new
   * transcript entry is one added node (a screen reader announces just it, in the role="log"), and
   * an unchanged button keeps its focus while the words beside it change. A field's typed value is
   * a property, not an attribute, so it is kept too.
   */
  const morph = (current: Node, fresh: Node): void => {
    if (current.isEqualNode(fresh)) return;
    // nodeName tells elements by tag and text from comments ('#text', '#comment').
    if (current.nodeName !== fresh.nodeName) {
      current.parentNode?.replaceChild(document.importNode(fresh, true), current);
      return;
    }
    if (!(current instanceof Element) || !(fresh instanceof Element)) {
      current.nodeValue = fresh.nodeValue;
      return;
    }
    for (const { name } of [...current.attributes]) if (!fresh.hasAttribute(name)) current.removeAttribute(name);
    for (const { name, value } of [...fresh.attributes])
      if (current.getAttribute(name) !== value) current.setAttribute(name, value);
    const now = [...current.childNodes];
    const next = [...fresh.childNodes];
    next.forEach((node, at) => {
      const old = now[at];
      if (old) morph(old, node);
      else current.appendChild(document.importNode(node, true));
    });
    for (const extra of now.slice(next.length)) extra.remove();
  };

  /** EventSource reconnects by itself after a dropped connection, but not after a refusal (non-200): then we do. */
  const listen = (url: string): void => {
    let delay = RECONNECT_FIRST_MS;
    const connect = (): void => {
      const source = new EventSource(url);
      source.addEventListener('change', scheduleRefresh);
      // The server's subscription was down for a while: changes may have been missed.
      source.addEventListener('resync', scheduleRefresh);
      source.addEventListener('open', () => {
        delay = RECONNECT_FIRST_MS;
        // Changes made before the stream was open were not sent: while it was down, and at the first
        // open, since the page was rendered (a user's message in that moment): catch up once.
        scheduleRefresh();
      });
      source.addEventListener('error', () => {
        if (source.readyState !== EventSource.CLOSED) return;
        // Refused: maybe the session ended (then the page read again is the sign-in form, and is shown).
        scheduleRefresh();
        window.setTimeout(connect, delay);
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
      });
    };
    connect();
  };

  /** Enter sends, Shift+Enter breaks the line; nothing happens while an input method composes (e.g. Japanese). */
  const enterSends = (reply: HTMLTextAreaElement, form: HTMLFormElement): void => {
    let sending = false;
    form.addEventListener('submit', (event) => {
      // A second Enter before the page has changed would send the reply twice.
      if (sending) event.preventDefault();
      sending = true;
    });
    // Back to this page from the browser's cache: the earlier send is over.
    window.addEventListener('pageshow', () => (sending = false));
    reply.addEventListener('keydown', (event) => {
      // keyCode 229: Safari reports the Enter that ends a composition with isComposing false.
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.keyCode === 229) return;
      event.preventDefault();
      if (reply.value.trim() !== '') form.requestSubmit();
    });
  };

  // A conversation opens on its newest messages, as a chat does; from there new ones keep it at the bottom.
  const log = document.querySelector<HTMLElement>('[role="log"]');
  if (log) log.scrollTop = log.scrollHeight;
  const events = document.body.dataset.events;
  if (events) listen(events);
  const reply = document.getElementById('reply');
  const form = document.getElementById('reply-form');
  if (reply instanceof HTMLTextAreaElement && form instanceof HTMLFormElement) enterSends(reply, form);
}
