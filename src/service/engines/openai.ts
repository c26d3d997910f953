import { EventSourceParserStream } from 'eventsource-parser/stream';
import { fetch } from 'undici';
import { ServiceError } from '../envelope.js';
import { buildMessages } from './openai-messages.js';
import type { AnswerEngine, AnswerRequest, EngineOutcome } from './types.js';

export interface OpenAiEngineOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  extraModels?: string[];
  timeoutMs?: number;
}

interface CompletionChunk {
  choices?: { delta?: { content?: string | null } }[];
  usage?: { total_tokens?: number } | null;
  error?: { message?: string };
}

/** `…/v1` stays as given; a bare host gets `/v1` (Ollama, vLLM and llama.cpp serve it there). */
export function completionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${/\/v\d+$/.test(base) ? base : `${base}/v1`}/chat/completions`;
}

/**
 * Any OpenAI-compatible `/v1/chat/completions` endpoint, streamed. Sends the
 * session's history, the chatbot's SystemMessage, AIResponseLanguage and
 * Temperature, images as data URLs, and the listings as context.
 */
export class OpenAiEngine implements AnswerEngine {
  readonly models: readonly string[];
  private readonly url: string;

  constructor(private readonly options: OpenAiEngineOptions) {
    this.models = [options.model, ...(options.extraModels ?? [])];
    this.url = completionsUrl(options.baseUrl);
  }

  async *answer(request: AnswerRequest): AsyncGenerator<string, EngineOutcome, void> {
    const messages = await buildMessages(request, await request.history());
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(this.options.timeoutMs ?? 120_000)]);
    const response = await fetch(this.url, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: request.model,
        messages,
        temperature: request.chatbot.settings.Temperature,
        stream: true,
        stream_options: { include_usage: true },
      }),
    }).catch((error: unknown) => {
      throw new ServiceError(
        502,
        `The AI model endpoint ${this.url} could not be reached (${(error as Error).message}); check the engine's baseUrl.`,
      );
    });
    if (response.status !== 200 || !response.body) {
      const detail = (await response.text()).slice(0, 300);
      throw new ServiceError(502, `The AI model endpoint answered HTTP ${response.status}: ${detail}`);
    }

    let answer = '';
    let totalTokens: number | undefined;
    const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    try {
      for await (const event of events) {
        if (event.data === '[DONE]') break;
        const chunk = JSON.parse(event.data) as CompletionChunk;
        if (chunk.error)
          throw new ServiceError(502, `The AI model failed: ${chunk.error.message ?? 'no reason given'}`);
        if (chunk.usage?.total_tokens !== undefined) totalTokens = chunk.usage.total_tokens;
        const content = chunk.choices?.[0]?.delta?.content;
        if (content) {
          answer += content;
          yield content;
        }
      }
    } catch (error) {
      if (error instanceof ServiceError || request.signal.aborted) throw error;
      throw new ServiceError(502, `The AI model's answer broke off (${(error as Error).message}); please ask again.`);
    }
    return { noAnswer: answer.trim() === '', ...(totalTokens === undefined ? {} : { totalTokens }) };
  }
}
