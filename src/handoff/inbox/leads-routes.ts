/**
 * The inbox's Leads page (issue 29): a day's leads of the chatbots the session may see, and the same leads as the
 * CSV the leads e-mail attaches.
 *   GET /leads[?day=YYYY-MM-DD][&bot=<id>]       default: today in the (first) chatbot's zone
 *   GET /leads.csv[?day=YYYY-MM-DD][&bot=<id>]
 * Written against the Digests interface: what makes someone a lead is the digests' to decide.
 */
import type { Request, Response, Router } from 'express';
import { badDayMessage, parseDigestDay, shiftDay, type Digests, type Lead } from '../digests/index.js';
import { OperatorDesk } from '../pause/index.js';
import { send, type InboxRequests } from './inbox-requests.js';
import { leadsPage, type ChatbotLeads } from './pages/leads.js';
import { noticePage } from './pages/sign-in.js';
import type { InboxSession } from './sessions.js';

export interface LeadsPageOptions {
  digests: Digests;
  /** The leads as the CSV the leads e-mail attaches (leadsCsv of digests/leads-csv.ts). */
  csv: (leads: readonly Lead[]) => string;
  /** The ids of the bots this gateway serves. */
  bots: readonly string[];
}

/** What a request asks for: the day, and the bots shown (those the session may see, or the one of `?bot=`). */
interface LeadsRequest {
  day: string;
  today: string;
  bot?: string;
  bots: string[];
}

/** GET /leads and /leads.csv on `router`; without `leads` (no digests in this gateway), a page that says so. */
export function mountLeads(
  router: Router,
  requests: InboxRequests,
  desk: OperatorDesk,
  leads: LeadsPageOptions | undefined,
): void {
  const { root } = requests;

  /** The request's day and bots, or null once a page saying what is wrong was sent. */
  const readRequest = async (req: Request, res: Response, session: InboxSession): Promise<LeadsRequest | null> => {
    if (!leads) {
      send(res, 404, noticePage(root, 'No leads here', "This gateway does not gather the day's leads.", session));
      return null;
    }
    const visible = leads.bots.filter((bot) => OperatorDesk.sees(session.viewer, bot));
    const asked = req.query.bot;
    if (asked !== undefined && (typeof asked !== 'string' || !visible.includes(asked))) {
      send(
        res,
        404,
        noticePage(
          root,
          'Not in your inbox',
          `Your sign-in sees no chatbot ${JSON.stringify(asked)}; the chatbots it sees: ${visible.join(', ') || 'none'}.`,
          session,
        ),
      );
      return null;
    }
    const bots = typeof asked === 'string' ? [asked] : visible;
    const first = bots[0];
    const today = first ? (await leads.digests.window(first)).day : new Date().toISOString().slice(0, 10);
    const day = req.query.day === undefined ? today : parseDigestDay(req.query.day);
    if (!day) {
      send(res, 400, noticePage(root, 'No such day', badDayMessage('The day', req.query.day), session));
      return null;
    }
    return { day, today, bots, ...(typeof asked === 'string' ? { bot: asked } : {}) };
  };

  router.get('/leads', async (req, res) => {
    const session = await requests.pageSession(req, res);
    const asked = session && (await readRequest(req, res, session));
    if (!session || !asked || !leads) return;
    const names = await desk.chatbotNames(new Set(asked.bots));
    const chatbots = await Promise.all(
      asked.bots.map(async (bot): Promise<ChatbotLeads> => {
        const [window, found] = await Promise.all([
          leads.digests.window(bot, asked.day),
          leads.digests.leads(bot, asked.day),
        ]);
        return { bot, chatbot: names.get(bot) ?? bot, zone: window.zone, leads: found };
      }),
    );
    send(
      res,
      200,
      leadsPage(root, session, {
        day: asked.day,
        previous: shiftDay(asked.day, -1),
        ...(asked.day < asked.today ? { next: shiftDay(asked.day, 1) } : {}),
        ...(asked.bot ? { bot: asked.bot } : {}),
        chatbots,
      }),
    );
  });

  router.get('/leads.csv', async (req, res) => {
    const session = await requests.pageSession(req, res);
    const asked = session && (await readRequest(req, res, session));
    if (!session || !asked || !leads) return;
    const found = await Promise.all(asked.bots.map((bot) => leads.digests.leads(bot, asked.day)));
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .attachment(`leads-${asked.bot ?? 'all'}-${asked.day}.csv`)
      .send(leads.csv(found.flat()));
  });
}
