import type { CloudTemplateDto, MessageTemplate } from '@wadesk/contracts';
import { AppError } from '../../http/app-error.js';
import type { ChannelDriver, SentMessage } from '../channel-driver.js';
import type { ChannelConnections } from '../ports.js';
import { CloudApiDriver } from './cloud-api-driver.js';
import { GraphClient } from './graph-client.js';
import type { GraphTemplate } from './graph-client.js';

/** The {{n}} placeholders of a template body, as their highest number (Meta numbers them 1, 2, … in order). */
export function variablesOf(body: string): number {
  let max = 0;
  for (const match of body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) max = Math.max(max, Number(match[1]));
  return max;
}

/** The body with its placeholders filled in: the text stored and shown for a sent template. */
export function renderTemplate(body: string, variables: string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => variables[Number(n) - 1] ?? whole);
}

export function toTemplateDto(t: GraphTemplate): CloudTemplateDto {
  const body = t.components?.find((c) => c.type.toUpperCase() === 'BODY')?.text ?? '';
  return { name: t.name, language: t.language, status: t.status, category: t.category, body, variables: variablesOf(body) };
}

/** The connection's driver when it is a Cloud API one; otherwise templates do not apply (ERR_VALIDATION). */
export function cloudDriver(driver: ChannelDriver): CloudApiDriver {
  if (!(driver instanceof CloudApiDriver)) throw new AppError('ERR_VALIDATION', 'Templates are only for WhatsApp Cloud API connections.');
  return driver;
}

/**
 * The business account's templates, as the chat offers them (approved first), through the connection's driver or,
 * on a process that does not run the connection, a Graph client of its stored credentials (the API answers any).
 */
export async function listTemplates(source: ChannelDriver | GraphClient): Promise<CloudTemplateDto[]> {
  const res = await (source instanceof GraphClient ? source : cloudDriver(source)).templates();
  const all = (res.data ?? []).map(toTemplateDto);
  return all.sort((a, b) => Number(b.status === 'APPROVED') - Number(a.status === 'APPROVED') || a.name.localeCompare(b.name));
}

/** The approved template of that name and language, with as many values as its placeholders; ERR_VALIDATION otherwise. */
export async function approvedTemplate(driver: ChannelDriver, name: string, language: string, variables: string[]): Promise<CloudTemplateDto> {
  const template = (await listTemplates(driver)).find((t) => t.name === name && t.language === language);
  if (!template || template.status !== 'APPROVED') {
    throw new AppError('ERR_VALIDATION', 'name: no approved template of that name and language', { issues: [{ path: 'name', message: 'No approved template of that name and language' }] });
  }
  if (variables.length !== template.variables) {
    throw new AppError('ERR_VALIDATION', `variables: the template needs ${template.variables}`, {
      issues: [{ path: 'variables', message: `The template needs ${template.variables} values` }],
    });
  }
  return template;
}

/**
 * The template rule of bulk sends and scheduled messages (issue 18): on a `cloud-api` connection each send is an
 * approved template (free text is refused by Meta outside the 24-hour window), so one is required
 * (ERR_CLOUD_API_TEMPLATE_REQUIRED); on the other channels there are no templates (ERR_CLOUD_API_TEMPLATE_NOT_ALLOWED).
 */
export async function checkTemplateRule(
  connections: Pick<ChannelConnections, 'cloudConfig'>,
  whatsappId: number,
  template: MessageTemplate | null | undefined,
): Promise<void> {
  const channel = (await connections.cloudConfig(whatsappId))?.channel;
  if (channel === 'cloud-api' && !template) {
    throw new AppError('ERR_CLOUD_API_TEMPLATE_REQUIRED', 'template: a Cloud API connection sends bulk and scheduled messages as an approved template.');
  }
  if (channel !== 'cloud-api' && template) {
    throw new AppError('ERR_CLOUD_API_TEMPLATE_NOT_ALLOWED', 'template: templates are only for WhatsApp Cloud API connections.');
  }
}

/** Sends one template to `to` through the connection's Cloud API driver (bulk sends; the chat's route stores a message). */
export async function sendTemplateTo(driver: ChannelDriver, to: string, template: MessageTemplate): Promise<SentMessage> {
  return cloudDriver(driver).sendTemplate(to, template.name, template.language, template.variables);
}
