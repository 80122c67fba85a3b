import { CampaignInput, CampaignListQuery, CampaignRecipientListQuery, idField } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { CampaignsService } from './campaigns.service.js';

const IdParams = z.object({ id: idField });
/** Every route of bulk sends belongs to the tool `bulk` (attendantTools, issue 32). */
const bulk = (docs?: { summary: string; body?: z.ZodType; query?: z.ZodType; status?: number }) => ({ config: { tool: 'bulk' as const, ...(docs ? { docs } : {}) } });

/** Bulk sends: any signed-in user starts one; each sees their own, admins every one (CampaignsService). */
export function campaignsRoutes(app: FastifyInstance, campaigns: CampaignsService): void {
  app.post('/api/campaigns', bulk({ summary: 'Starts a bulk send', body: CampaignInput, status: 201 }), async (request, reply) => {
    const created = await campaigns.create(currentUser(request), parse(CampaignInput, request.body));
    return reply.status(201).send(created);
  });

  app.get('/api/campaigns', bulk({ summary: 'Bulk sends, newest first, 20 a page', query: CampaignListQuery }), async (request) => {
    const { pageNumber } = parse(CampaignListQuery, request.query);
    return campaigns.list(currentUser(request), pageNumber);
  });

  /** Where /ZDGMedia2's files must be (the setting bulkMediaFolder, or DATA_DIR/bulk-media): a label; the path for admins. */
  app.get('/api/campaigns/media-folder', bulk(), async (request) => campaigns.mediaFolder(currentUser(request)));

  app.get('/api/campaigns/:id', bulk(), async (request) => {
    const { id } = parse(IdParams, request.params);
    return campaigns.get(currentUser(request), id);
  });

  app.get('/api/campaigns/:id/recipients', bulk({ summary: "A bulk send's recipients with their outcome", query: CampaignRecipientListQuery }), async (request) => {
    const { id } = parse(IdParams, request.params);
    const { pageNumber } = parse(CampaignRecipientListQuery, request.query);
    return campaigns.recipients(currentUser(request), id, pageNumber);
  });

  app.get('/api/campaigns/:id/recipients.csv', bulk(), async (request, reply) => {
    const { id } = parse(IdParams, request.params);
    const csv = await campaigns.recipientsCsv(currentUser(request), id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="campaign-${id}.csv"`)
      .send(csv);
  });

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    app.post(`/api/campaigns/:id/${action}`, bulk(), async (request) => {
      const { id } = parse(IdParams, request.params);
      return campaigns[action](currentUser(request), id);
    });
  }
}
