import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, createUser, uiLogin, unique, withAttendantTools } from './support/api';
import { openTab, shot, ticketRow, uniqueNumber } from './support/tickets';

interface SimulatorGroup {
  id: string;
  subject: string;
  participants: string[];
  announce: boolean;
}

/** Chooses the connection the group actions act on. */
async function chooseConnection(page: Page, name: string): Promise<void> {
  await page.getByTestId('groups-connection').click();
  await page.getByRole('option', { name: new RegExp(name) }).click();
}

/** Issue 13: /ZDGGroups runs the six group actions as paced jobs (the e2e server starts them after 1–2 s). */
test.describe('group management', () => {
  test('an admin creates a group from the page, messages it, and sees the alert when the fields do not fit', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Groups ${unique()}` });
    const admin = await apiLogin(request);
    const actions = async () => (await api<{ groupActions: unknown[] }>(request, admin, 'GET', '/api/groups/actions')).groupActions.length;
    // Brazilian mobile numbers as WhatsApp writes them (55, area code, 9 and 8 digits): stored as typed.
    const [a, b] = [`55119${uniqueNumber().slice(-8)}`, `55219${uniqueNumber().slice(-8)}`];
    const title = `Turma ${unique()}`;

    await uiLogin(page);
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.waitForURL('**/ZDGGroups');
    await chooseConnection(page, connection.name);
    await expect(page.getByTestId('groups-count')).toHaveText('0 groups on this connection');

    // Open groups asks for the word ABRIR: anything else runs nothing.
    const before = await actions();
    await page.getByTestId('groups-tab-open').click();
    await page.getByTestId('group-field-confirmation').fill('abrir');
    await page.getByTestId('group-action-run').click();
    await expect(page.getByTestId('group-fields-alert')).toHaveText('Fill in the fields correctly: no action was run.');
    // So does a create with a title and no participants.
    await page.getByTestId('groups-tab-create').click();
    await expect(page.getByTestId('group-fields-alert')).toBeHidden();
    await page.getByTestId('group-field-title').fill(title);
    await page.getByTestId('group-action-run').click();
    await expect(page.getByTestId('group-fields-alert')).toBeVisible();
    await page.waitForTimeout(500);
    expect(await actions()).toBe(before);

    // Create: a title and one number per line.
    await page.getByTestId('group-field-participants').fill(`${a}\n${b}`);
    await page.getByTestId('group-action-run').click();
    await expect(page.getByTestId('group-fields-alert')).toBeHidden();
    await expect(page.getByTestId('group-action-panel')).toBeVisible();
    await expect(page.getByTestId('group-action-progress')).toHaveText('1 / 1', { timeout: 30_000 });
    await expect(page.getByTestId('group-action-status')).toHaveText('Done');
    const groups = await api<SimulatorGroup[]>(request, admin, 'GET', `/api/simulator/${connection.id}/groups`);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ subject: title, announce: false });
    expect(groups[0]!.participants).toEqual(expect.arrayContaining([a, b]));
    await expect(page.getByTestId('groups-count')).toHaveText('1 group on this connection');

    // A message in every group: the new group gets it.
    await page.getByTestId('groups-tab-message').click();
    await page.getByTestId('group-field-message').fill('Bem-vindos à turma!');
    await page.getByTestId('group-action-run').click();
    await expect(page.getByTestId('group-action-panel')).toContainText('Message groups');
    await expect(page.getByTestId('group-action-progress')).toHaveText('1 / 1', { timeout: 30_000 });
    await expect(page.getByTestId('group-action-items')).toContainText(title);
    const outbox = await api<{ to: string; body: string }[]>(request, admin, 'GET', `/api/simulator/${connection.id}/outbox`);
    expect(outbox.filter((e) => e.body === 'Bem-vindos à turma!').map((e) => e.to)).toEqual([groups[0]!.id]);
    await expect(page.getByTestId('group-action-history').locator('tbody tr')).toHaveCount(before + 2);
  });

  test('shows the page to attendants by default, and not once attendantTools leaves groups out (the path goes to /)', async ({ page, request }) => {
    const attendant = await createUser(request);
    await uiLogin(page, attendant.email, attendant.password);
    await expect(page.getByRole('link', { name: 'Groups' })).toBeVisible();
    await withAttendantTools(request, 'bulk,schedules', async () => {
      await page.reload();
      await expect(page.getByRole('link', { name: 'Bulk text' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Groups' })).toHaveCount(0);
      await page.goto('/ZDGGroups');
      await page.waitForURL((url) => url.pathname === '/');
    });
  });

  test('the Group tab of the tickets manager shows a simulator group conversation', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Group tickets ${unique()}` });
    const admin = await apiLogin(request);
    const groupName = `Clientes ${unique()}`;
    const created = await api<{ id: string }>(request, admin, 'POST', `/api/simulator/${connection.id}/groups`, {
      subject: groupName,
      participants: [uniqueNumber()],
    });
    await api(request, admin, 'POST', `/api/simulator/${connection.id}/inbound`, {
      from: uniqueNumber(),
      name: 'Ana',
      body: 'Bom dia, pessoal',
      groupId: created.id,
      groupName,
    });
    await uiLogin(page);
    await openTab(page, /^Group/);
    await openTab(page, /Queue/);
    await expect(ticketRow(page, groupName)).toBeVisible();
    await expect(ticketRow(page, groupName)).toContainText('Bom dia, pessoal');
    await openTab(page, /Inbox/);
    await openTab(page, /Queue/);
    await expect(ticketRow(page, groupName)).toHaveCount(0);
  });

  test('looks right in English and Portuguese, on a desktop and at 390 px', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Screens ${unique()}` });
    const admin = await apiLogin(request);
    for (const subject of ['Turma A', 'Turma B']) {
      await api(request, admin, 'POST', `/api/simulator/${connection.id}/groups`, { subject, participants: [uniqueNumber(), uniqueNumber()] });
    }
    await uiLogin(page);
    for (const [lng, alert] of [
      ['en', 'Fill in the fields correctly: no action was run.'],
      ['pt', 'Preencha os campos corretamente, nenhuma ação foi executada.'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lng);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
        await page.goto('/ZDGGroups');
        await chooseConnection(page, connection.name);
        await page.getByTestId('groups-tab-privateMessage').click();
        await page.getByTestId('group-action-run').click();
        await expect(page.getByTestId('group-fields-alert')).toHaveText(alert);
        await shot(page, `groups-${lng}-${width}`);
      }
    }
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  });
});
