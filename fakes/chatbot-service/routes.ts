/**
 * The HTTP face of the scripted Chatbot Service: the operations the gateway uses to answer
 * a message, on the paths, keys, bodies and envelope of docs/chatbot-service-api.md (§3–§7,
 * §9). Bodies are checked as the service checks them, so a client that sends the wrong
 * shape, key or header fails here as it would there. Plain node:http: the unit tests ask it
 * thousands of questions, one after another.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { z } from 'zod';
import { sendWholeAnswer, streamAnswer } from './answers.js';
import { sendFailure, sendOk } from './envelope.js';
import { listingPage, listingQuerySchema } from './listings.js';
import type { ScriptedServiceWorld } from './world.js';

const sessionRequest = z.object({ serialNumber: z.string().min(1) });
const askRequest = z.object({
  sessionID: z.number().int().min(1),
  content: z.string(),
  chatAskType: z.enum(['Text', 'Audio', 'Image', 'Video']).nullish(),
  stream: z.boolean().nullish(),
  fileIds: z.array(z.number().int().min(1)).nullish(),
});
const preUploadRequest = z.object({ fileName: z.string().min(1).max(255) });

/** The largest PUT to an upload URL (the service's largest media limit, §11). */
const UPLOAD_BYTES_MAX = 100 * 1024 * 1024;
/** The largest JSON body (§1). */
const JSON_BYTES_MAX = 1024 * 1024;
const UPLOAD_PATH = /^\/upload\/(\d+)$/;

/** One request, its body read. */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  body: Buffer;
}

export function scriptedServiceListener(world: ScriptedServiceWorld): RequestListener {
  return (req, res) => {
    if (world.down) {
      // A request on a connection kept alive from before the outage is reset like a new connection (index.ts).
      world.failedCalls++;
      req.socket.resetAndDestroy();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://service').pathname;
    const upload = req.method === 'PUT' ? UPLOAD_PATH.exec(path) : null;
    readBody(req, upload ? UPLOAD_BYTES_MAX : JSON_BYTES_MAX)
      .then((body) => {
        if (body === null)
          return sendFailure(res, {
            code: 413,
            message: `The body is over the ${upload ? 'upload' : 'JSON body'} limit.`,
          });
        const call = { req, res, body };
        if (upload) return receiveUpload(world, call, Number(upload[1]));
        return route(world, call, `${req.method} ${path}`);
      })
      .catch((error: unknown) => {
        if (!res.headersSent)
          sendFailure(res, { code: 500, message: `The scripted Chatbot Service failed: ${String(error)}` });
        else res.destroy();
      });
  };
}

async function route(world: ScriptedServiceWorld, call: Call, operation: string): Promise<void> {
  switch (operation) {
    case 'POST /chat/Chatbot/GetSession': {
      if (!hasKey(call, 'authorization', world.secretKey)) return;
      if (parse(sessionRequest, call)) sendOk(call.res, { SessionID: world.openSession() });
      return;
    }
    case 'POST /chat/Chat/ClientAsk':
      if (!hasKey(call, 'authorization', world.secretKey)) return;
      return answerQuestion(world, call);
    case 'POST /chat/User/GetPreUploadUrl': {
      if (!hasKey(call, 'authorization', world.secretKey)) return;
      const body = parse(preUploadRequest, call);
      if (!body) return;
      const fileId = world.reserveFile(body.fileName);
      sendOk(call.res, {
        FileStoreId: String(fileId),
        PreUploadUrl: `http://${call.req.headers.host}/upload/${fileId}`,
      });
      return;
    }
    case 'POST /chat/Chatbot/RealEstateList': {
      if (!hasKey(call, 'chatrobot-sessionkey', world.sessionKey)) return;
      const query = parse(listingQuerySchema, call);
      if (query) sendOk(call.res, listingPage(world.listings, query));
      return;
    }
    default:
      sendFailure(call.res, { code: 404, message: `The scripted Chatbot Service does not serve ${operation}.` });
  }
}

async function answerQuestion(world: ScriptedServiceWorld, call: Call): Promise<void> {
  const { req, res } = call;
  if (!req.headers['content-type']?.startsWith('application/json')) {
    return sendFailure(res, { code: 415, message: 'ClientAsk takes Content-Type: application/json.' });
  }
  const body = parse(askRequest, call);
  if (!body) return;
  const chatAskType = body.chatAskType ?? null;
  const fileIds = body.fileIds ?? null;
  if ((chatAskType ?? 'Text') === 'Text') {
    if (fileIds?.length)
      return sendFailure(res, { code: 400, message: 'fileIds are valid only with chatAskType Image, Audio or Video.' });
    if (body.content.trim() === '')
      return sendFailure(res, { code: 400, message: 'content must not be blank for a Text question.' });
  }
  if (!world.knowsSession(body.sessionID)) {
    return sendFailure(res, {
      code: 404,
      message: `No chat session has the sessionID ${body.sessionID}; create one with /chat/Chatbot/GetSession.`,
    });
  }
  const notUploaded = fileIds?.find((fileId) => !world.isUploaded(fileId));
  if (notUploaded !== undefined)
    return sendFailure(res, {
      code: 400,
      message: `File ${notUploaded} has no bytes: PUT them to its PreUploadUrl first.`,
    });

  const ask = { sessionId: body.sessionID, content: body.content, chatAskType, fileIds, stream: body.stream ?? false };
  const askNumber = world.record(ask);
  const pause = world.takeNextPause();
  let callerLeft = false;
  world.answerOpened();
  res.once('close', () => {
    callerLeft = true;
    world.answerClosed();
  });
  await world.untilAnswersFlow();
  if (callerLeft) return;
  const reply = world.answer(ask, askNumber);
  if ('refusal' in reply) return sendFailure(res, reply.refusal);
  const ids = { questionId: askNumber * 2 - 1, answerId: askNumber * 2 };
  if (ask.stream) await streamAnswer(res, reply, ids, pause);
  else sendWholeAnswer(res, reply, ids);
}

function receiveUpload(world: ScriptedServiceWorld, { req, res, body }: Call, fileId: number): void {
  const fileName = world.reservedFileName(fileId);
  if (fileName === undefined)
    return sendFailure(res, { code: 403, message: 'This upload URL was not handed out by GetPreUploadUrl.' });
  if (body.length === 0) return sendFailure(res, { code: 400, message: 'The upload has no bytes.' });
  if (world.isUploaded(fileId)) return sendFailure(res, { code: 409, message: `File ${fileId} was uploaded already.` });
  world.uploads.push({ fileId, fileName, contentType: req.headers['content-type'] ?? '', bytes: new Uint8Array(body) });
  // Like a presigned storage URL: success is the status alone.
  res.writeHead(200).end();
}

/** Whether the request carries `key` in `header` (§3: the bare key); if not, a 401 was sent. */
function hasKey({ req, res }: Call, header: 'authorization' | 'chatrobot-sessionkey', key: string): boolean {
  if (req.headers[header] === key) return true;
  sendFailure(res, {
    code: 401,
    message: `Send the ${header === 'authorization' ? 'secret' : 'session'} key in the ${header} header.`,
  });
  return false;
}

/** The JSON body as `schema` reads it, or undefined once a 400 naming what is wrong was sent. */
function parse<Schema extends z.ZodType>(schema: Schema, { res, body }: Call): z.output<Schema> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    sendFailure(res, { code: 400, message: 'The body is not JSON.' });
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  sendFailure(res, { code: 400, message: z.prettifyError(parsed.error).replace(/\n/g, '; ') });
  return undefined;
}

/** The whole body, or null (the rest of it read and dropped) past `maxBytes`. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (part: Buffer) => {
      size += part.length;
      if (size <= maxBytes) parts.push(part);
    });
    req.on('end', () => resolve(size <= maxBytes ? Buffer.concat(parts) : null));
    req.on('error', reject);
  });
}
