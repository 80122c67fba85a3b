import { describe, expect, it } from 'vitest';
import { NAV_ITEMS, visibleNavItems } from './nav-items';

const paths = (viewer: { admin: boolean; simulator: boolean }) => visibleNavItems(viewer).map((item) => item.path);

describe('drawer items', () => {
  it('shows only the pages that work: no tool of §2 before its issue lands', () => {
    const tools = ['/ZDG', '/ZDGMedia', '/ZDGMedia2', '/ZDGMedia3', '/ZDGGroups', '/ZDGChatbot', '/ZDGAgendamento', '/ZDGHistorico', '/InstaDirect', '/SMS', '/VoiceCall'];
    for (const path of tools) expect(NAV_ITEMS.some((item) => item.path === path), path).toBe(true);
    const shown = paths({ admin: true, simulator: true });
    for (const path of tools) {
      const item = NAV_ITEMS.find((i) => i.path === path)!;
      expect(shown.includes(path), path).toBe(item.ready);
    }
  });

  it('gives an attendant the desk pages and connections, not the admin pages nor the simulator', () => {
    expect(paths({ admin: false, simulator: true })).toEqual(['/', '/tickets', '/connections', '/contacts', '/quickAnswers', ...readyTools()]);
  });

  it('shows the simulator to admins only while the server runs it', () => {
    expect(paths({ admin: true, simulator: true })).toContain('/simulator');
    expect(paths({ admin: true, simulator: false })).not.toContain('/simulator');
    expect(paths({ admin: true, simulator: false })).toEqual(expect.arrayContaining(['/users', '/queues', '/settings']));
  });
});

function readyTools(): string[] {
  return NAV_ITEMS.filter((item) => item.section === 'tools' && item.ready && !item.audience).map((item) => item.path);
}
