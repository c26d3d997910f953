/**
 * The inbox's live updates: changes published by any gateway process sharing the
 * Redis, served to open inbox pages as Server-Sent Events, and the page script that turns them
 * into fresh regions of the page. The inbox server (src/handoff/inbox/) uses only this file.
 */
export { endSessionStreams, onSessionEnded, startInboxFeed } from './feed.js';
export { serveInboxEvents, type StreamSession } from './events.js';
export { inboxScript } from './script.js';
