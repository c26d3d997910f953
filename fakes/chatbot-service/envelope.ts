/** The Chatbot Service's envelope (docs/chatbot-service-api.md §2): every answer that is not a stream. */
import type { ServerResponse } from 'node:http';
import type { ServiceFailure } from './world.js';

export const API_VERSION = '1.0.0';

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export function sendOk(res: ServerResponse, data: unknown): void {
  sendJson(res, 200, { Data: data, Version: API_VERSION, Success: true, Code: 200, Message: '' });
}

/** A failure, its HTTP status equal to its Code (as the embedded service answers, §10). */
export function sendFailure(res: ServerResponse, failure: ServiceFailure): void {
  sendJson(res, failure.code, {
    Data: null,
    Version: API_VERSION,
    Success: false,
    Code: failure.code,
    Message: failure.message,
  });
}
