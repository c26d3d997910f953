import type { AskFinal, AskStreamEvent, CallOptions, ClientAskRequest } from './api.js';
import { chatAnswerSchema, clientAskBody } from './chat.js';
import type { UpstreamContext } from './context.js';
import { dataOrThrow, parseData } from './envelope.js';
import { UpstreamError, toUpstreamError } from './errors.js';
import type { RawResponse } from './http.js';
import { createStreamDecoder, type DecodedStreamEvent } from './stream-decoder.js';

const STREAM_ACCEPT = 'text/event-stream, application/x-ndjson, application/json';

/**
 * ClientAsk with `stream: true`: fragments in order, then exactly one final.
 * `timeoutMs` bounds the wait for the response headers; after that the stream may
 * be silent at most `streamIdleTimeoutMs` between chunks (time the consumer spends
 * between two events does not count). Breaking out of the loop closes the request.
 */
export async function* askStream(
  ctx: UpstreamContext,
  request: ClientAskRequest,
  options?: CallOptions,
): AsyncGenerator<AskStreamEvent> {
  const deadline = ctx.http.deadline(options);
  let response: RawResponse | undefined;
  try {
    response = await ctx.http.open(
      {
        operation: 'ClientAsk',
        method: 'POST',
        target: ctx.paths.clientAsk,
        credential: 'secret',
        json: clientAskBody(request, true),
        accept: STREAM_ACCEPT,
        idempotent: false,
      },
      deadline,
    );
    const type = String(response.headers['content-type'] ?? '').toLowerCase();
    if (response.statusCode < 200 || response.statusCode >= 300 || type.startsWith('application/json')) {
      // An error envelope, or a host that ignores `stream` and answers in one piece.
      yield wholeAnswer(response.statusCode, await response.body.text());
      return;
    }
    if (type.startsWith('text/html')) {
      throw new UpstreamError({
        kind: 'invalid-response',
        operation: 'ClientAsk',
        status: response.statusCode,
        message:
          'ClientAsk answered with an HTML page instead of an event stream; check UPSTREAM_BASE_URL (a proxy or login page?)',
      });
    }
    const decoder = createStreamDecoder();
    deadline.arm(ctx.streamIdleTimeoutMs);
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      for (const event of decoder.push(chunk)) {
        deadline.pause();
        yield checked(event, response.statusCode);
        if (event.type === 'final') return;
      }
      deadline.arm(ctx.streamIdleTimeoutMs);
    }
    for (const event of decoder.end()) yield checked(event, response.statusCode);
  } catch (error) {
    throw toUpstreamError(error, 'ClientAsk', deadline.cause, deadline.timeoutMs);
  } finally {
    deadline.dispose();
    if (response && !response.body.readableEnded) {
      // After the final (or on an early break) the rest of the body is of no use. Destroying
      // an unfinished undici body emits an abort error that nobody is left to handle.
      response.body.on('error', () => undefined).destroy();
    }
  }
}

function wholeAnswer(status: number, text: string): AskFinal {
  const answer = parseData('ClientAsk', status, chatAnswerSchema, dataOrThrow('ClientAsk', status, text));
  return {
    type: 'final',
    questionId: null,
    answerId: answer.messageId,
    answer: answer.content,
    totalToken: answer.totalToken,
    noAnswer: answer.noAnswer,
    incomplete: false,
  };
}

function checked(event: DecodedStreamEvent, status: number): AskStreamEvent {
  if (event.type !== 'error') return event;
  throw new UpstreamError({
    kind: event.source === 'upstream' ? 'envelope' : 'invalid-response',
    operation: 'ClientAsk',
    status,
    code: event.code,
    message: event.message,
  });
}
