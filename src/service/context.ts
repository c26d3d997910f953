import type { Request, Response } from 'express';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { StateStore } from '../state/types.js';
import type { Credential } from './auth.js';
import { createEngine, type AnswerEngine } from './engines/index.js';
import { resolveLimits, type ServiceLimits, type ServiceOptions } from './options.js';
import { ChatbotRepository } from './repos/chatbots.js';
import { FileRepository } from './repos/files.js';
import { ListingRepository } from './repos/listings.js';
import { SessionRepository } from './repos/sessions.js';

/** Everything a route needs, built once per app. */
export interface ServiceContext {
  options: ServiceOptions;
  limits: ServiceLimits;
  state: StateStore;
  logger: Logger;
  engine: AnswerEngine;
  chatbots: ChatbotRepository;
  sessions: SessionRepository;
  listings: ListingRepository;
  files: FileRepository;
}

export function createContext(options: ServiceOptions): ServiceContext {
  const limits = resolveLimits(options.limits);
  return {
    options,
    limits,
    state: options.state,
    logger: options.logger ?? silentLogger(),
    engine: createEngine(options.engine),
    chatbots: new ChatbotRepository(options.state),
    sessions: new SessionRepository(options.state, limits.sessionTtlMs, limits.historyEntries),
    listings: new ListingRepository(options.state),
    files: new FileRepository(options.state, limits.fileTtlMs),
  };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT';

export interface Endpoint {
  path: string;
  methods: readonly HttpMethod[];
  /** Omitted for the pre-upload PUT, which carries its own signature. */
  credential?: Credential;
  /** Spec rule 1: Edit and ClientAsk require `Content-Type: application/json`; the others read any body as JSON. */
  requiresJson?: boolean;
  handle(req: Request, res: Response): Promise<void>;
}
