/**
 * The scripted Chatbot Service (fakes/chatbot-service) as the tests use it: started for one
 * test and closed when it finishes, and the real upstream client (src/upstream) a gateway
 * "process" talks to it with.
 */
import { onTestFinished } from 'vitest';
import { ChatbotServiceClient } from '../../src/upstream/index.js';
import {
  startScriptedChatbotService,
  type RecordedAsk,
  type ScriptedChatbotService,
  type ScriptedReply,
  type ScriptedServiceOptions,
} from '../../fakes/chatbot-service/index.js';

/** Starts the service for the running test; it is closed once the test and its afterEach hooks are done. */
export async function startScriptedService(options: ScriptedServiceOptions): Promise<ScriptedChatbotService> {
  const service = await startScriptedChatbotService(options);
  onTestFinished(() => service.close());
  return service;
}

/** The real client a gateway process would have, pointed at `service` (closed when the test finishes). */
export function upstreamClient(service: ScriptedChatbotService): ChatbotServiceClient {
  const client = new ChatbotServiceClient({
    baseUrl: service.url,
    secretKey: service.secretKey,
    sessionKey: service.sessionKey,
  });
  onTestFinished(() => client.close());
  return client;
}

/** "You said: <question>" (with a note of the files it came with), a word a fragment. */
export function echoAnswer(ask: RecordedAsk): ScriptedReply {
  const files = ask.fileIds?.length ? ` (with ${ask.fileIds.length} ${ask.chatAskType} file)` : '';
  return { fragments: `You said: ${ask.content}${files}`.split(/(?<= )/) };
}

/** A service that answers every question with `echoAnswer`. */
export function startEchoService(options: Partial<ScriptedServiceOptions> = {}): Promise<ScriptedChatbotService> {
  return startScriptedService({ answer: echoAnswer, ...options });
}
