import { ATTENDANT_TOOLS, parseAttendantTools } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { NAV_ITEMS, visibleNavItems } from './nav-items';

const ALL_TOOLS = parseAttendantTools(ATTENDANT_TOOLS.join(','));
const paths = (viewer: { admin: boolean; simulator: boolean; tools?: string }) =>
  visibleNavItems({ ...viewer, tools: viewer.tools === undefined ? ALL_TOOLS : parseAttendantTools(viewer.tools) }).map((item) => item.path);

const TOOL_PAGES = ['/ZDG', '/ZDGMedia', '/ZDGMedia2', '/ZDGMedia3', '/ZDGGroups', '/ZDGChatbot', '/ZDGAgendamento', '/ZDGHistorico', '/InstaDirect', '/SMS', '/VoiceCall'];

describe('drawer items', () => {
  it('shows only the pages that work: no tool of §2 before its issue lands', () => {
    for (const path of TOOL_PAGES) expect(NAV_ITEMS.some((item) => item.path === path), path).toBe(true);
    const shown = paths({ admin: true, simulator: true });
    for (const path of TOOL_PAGES) {
      const item = NAV_ITEMS.find((i) => i.path === path)!;
      expect(shown.includes(path), path).toBe(item.ready);
    }
  });

  it('gives an attendant the desk pages, reports (their own line), connections and every tool by default (§6), not the admin pages nor the simulator', () => {
    expect(paths({ admin: false, simulator: true })).toEqual(['/', '/tickets', '/connections', '/contacts', '/quickAnswers', '/reports', ...TOOL_PAGES]);
  });

  it('shows an attendant only the tools the setting attendantTools lists; admins every one', () => {
    expect(paths({ admin: false, simulator: false, tools: 'bulk,schedules' })).toEqual([
      '/', '/tickets', '/connections', '/contacts', '/quickAnswers', '/reports', '/ZDG', '/ZDGMedia', '/ZDGMedia2', '/ZDGMedia3', '/ZDGAgendamento',
    ]);
    expect(paths({ admin: false, simulator: false, tools: 'sms' })).toContain('/SMS');
    expect(paths({ admin: false, simulator: false, tools: 'sms' })).not.toContain('/VoiceCall');
    expect(paths({ admin: false, simulator: false, tools: '' })).toEqual(['/', '/tickets', '/connections', '/contacts', '/quickAnswers', '/reports']);
    expect(paths({ admin: true, simulator: false, tools: '' })).toEqual(expect.arrayContaining(TOOL_PAGES));
  });

  it('shows the simulator to admins only while the server runs it', () => {
    expect(paths({ admin: true, simulator: true })).toContain('/simulator');
    expect(paths({ admin: true, simulator: false })).not.toContain('/simulator');
    expect(paths({ admin: true, simulator: false })).toEqual(expect.arrayContaining(['/users', '/queues', '/settings']));
  });
});
