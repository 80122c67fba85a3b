import { afterAll, describe, expect, it } from 'vitest';
import i18n from '.';

describe('plurals (issue 33 item 17)', () => {
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('counts zero as plural in Portuguese ("0 grupos"), one as singular', async () => {
    await i18n.changeLanguage('pt');
    expect(i18n.t('groups.groupCount', { count: 0 })).toBe('0 grupos nesta conexão');
    expect(i18n.t('groups.groupCount', { count: 1 })).toBe('1 grupo nesta conexão');
    expect(i18n.t('groups.groupCount', { count: 2 })).toBe('2 grupos nesta conexão');
  });

  it('leaves English and Spanish as they are', async () => {
    await i18n.changeLanguage('en');
    expect(i18n.t('groups.groupCount', { count: 0 })).toMatch(/^0 groups/);
    await i18n.changeLanguage('es');
    expect(i18n.t('groups.groupCount', { count: 0 })).toMatch(/^0 grupos/);
  });
});

describe('Portuguese wording (issue 33 item 17)', () => {
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('says "Atribuído a", one verb for deleting a message, and what the buttons of a cancel do', async () => {
    await i18n.changeLanguage('pt');
    expect(i18n.t('tickets.header.assignedTo', { name: 'Ana' })).toBe('Atribuído a: Ana');
    const deleting = ['chat.message.delete', 'chat.message.deleteTitle', 'chat.message.deleted', 'errors.ERR_DELETE_WAPP_MSG', 'errors.ERR_CLOUD_API_CANNOT_DELETE'].map((key) => i18n.t(key));
    for (const text of deleting) expect(text).toMatch(/apag/i);
    expect(deleting.join(' ')).not.toMatch(/exclu|delet/i);
    expect(i18n.t('campaigns.failedCount', { count: 1 })).toBe('1 falhou');
    expect(i18n.t('campaigns.keepSending')).toBe('Continuar enviando');
    await i18n.changeLanguage('en');
    expect([i18n.t('campaigns.keepSending'), i18n.t('campaigns.cancel')]).toEqual(['Keep sending', 'Cancel send']);
  });
});
