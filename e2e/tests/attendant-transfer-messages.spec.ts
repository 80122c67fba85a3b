import { expect, test } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, createUser, uiLogin, unique } from './support/api';
import { createQueue, uniqueNumber } from './support/tickets';
import { openTransfer, ticketIdOf, ticketOf, transferShot } from './support/transfer';

test.describe('transfer by an attendant', () => {
  test('an attendant transfers a ticket to a colleague picked from the list, without typing', async ({ page, request }) => {
    const queue = await createQueue(request);
    const connection = await connectedSimulator(request, { queueIds: [queue.id] });
    const me = await createUser(request, { name: `Ana ${unique()}`, queueIds: [queue.id] });
    const colleague = await createUser(request, { name: `Bruno ${unique()}`, queueIds: [queue.id] });
    const number = uniqueNumber();
    const name = `Carla ${unique()}`;
    await contactWrites(request, connection.id, { from: number, name, body: 'Preciso de ajuda' });
    const ticketId = await ticketIdOf(request, number);
    const myToken = await apiLogin(request, me.email, me.password);
    await api(request, myToken, 'PUT', `/api/tickets/${ticketId}`, { status: 'open' });

    await uiLogin(page, me.email, me.password);
    await page.goto(`/tickets/${ticketId}`);
    await expect(page.getByTestId('ticket-title')).toContainText(name);
    await openTransfer(page, { transfer: 'Transfer', more: 'more options' });
    const dialog = page.getByRole('dialog');

    // The user field is required.
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await expect(dialog.getByText('Required', { exact: true })).toBeVisible();
    expect((await ticketOf(request, ticketId)).userId).toBe(me.id);

    // Opening the field lists every colleague, with their queues, before anything is typed.
    await dialog.getByRole('combobox', { name: 'Transfer to' }).click();
    const options = page.getByTestId('transfer-user-option');
    await expect(options.filter({ hasText: colleague.name })).toBeVisible();
    await expect(options.filter({ hasText: colleague.name })).toContainText(queue.name);
    await expect(options.filter({ hasText: `${me.name} (you)` })).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: 'Transfer to' })).toHaveValue('');
    await transferShot(page, 'en-01-list');
    await options.filter({ hasText: colleague.name }).click();
    await expect(dialog.getByRole('combobox', { name: 'Transfer to' })).toHaveValue(colleague.name);
    await transferShot(page, 'en-02-picked');
    await dialog.getByRole('button', { name: 'Transfer' }).click();

    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await ticketOf(request, ticketId)).userId).toBe(colleague.id);
    expect(await ticketOf(request, ticketId)).toMatchObject({ status: 'open', queueId: queue.id });
  });

  test('typing filters the list, accents and case ignored; "nobody" needs a queue and sends the ticket back to waiting', async ({ page, request }) => {
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
    const queue = await createQueue(request);
    const connection = await connectedSimulator(request, { queueIds: [queue.id] });
    const me = await createUser(request, { name: `Dora ${unique()}`, queueIds: [queue.id] });
    const colleague = await createUser(request, { name: `João Évora ${unique()}`, queueIds: [queue.id] });
    const number = uniqueNumber();
    await contactWrites(request, connection.id, { from: number, name: `Eva ${unique()}`, body: 'Olá' });
    const ticketId = await ticketIdOf(request, number);
    await api(request, await apiLogin(request, me.email, me.password), 'PUT', `/api/tickets/${ticketId}`, { status: 'open' });

    await uiLogin(page, me.email, me.password);
    await page.goto(`/tickets/${ticketId}`);
    await openTransfer(page, { transfer: 'Transferir', more: 'mais opções' });
    const dialog = page.getByRole('dialog');
    const field = dialog.getByRole('combobox', { name: 'Transferir para' });
    await field.click();
    await transferShot(page, 'pt-01-list');
    await field.fill('joao evo');
    const options = page.getByTestId('transfer-user-option');
    await expect(options).toHaveCount(1);
    await expect(options).toContainText(colleague.name);
    await transferShot(page, 'pt-02-filtered');

    // Nobody: the queue becomes required, then the ticket waits in it with no user.
    await field.fill('');
    await page.getByRole('option', { name: 'Ninguém: aguardar em uma fila' }).click();
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await expect(dialog.getByText('Escolha a fila em que o ticket aguarda')).toBeVisible();
    await transferShot(page, 'pt-03-queue-required');
    await dialog.getByLabel(/^Fila/).click();
    await page.getByRole('option', { name: queue.name }).click();
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await ticketOf(request, ticketId)).status).toBe('pending');
    expect(await ticketOf(request, ticketId)).toMatchObject({ userId: null, queueId: queue.id });
  });

  test('at phone width the dialog fits and lists colleagues', async ({ page, request }) => {
    const queue = await createQueue(request);
    const connection = await connectedSimulator(request, { queueIds: [queue.id] });
    const me = await createUser(request, { name: `Fábio ${unique()}`, queueIds: [queue.id] });
    const colleague = await createUser(request, { name: `Gabriela Nascimento de Albuquerque ${unique()}`, queueIds: [queue.id] });
    const number = uniqueNumber();
    await contactWrites(request, connection.id, { from: number, name: `Hugo ${unique()}`, body: 'Oi' });
    const ticketId = await ticketIdOf(request, number);
    await api(request, await apiLogin(request, me.email, me.password), 'PUT', `/api/tickets/${ticketId}`, { status: 'open' });

    await page.setViewportSize({ width: 390, height: 844 });
    await uiLogin(page, me.email, me.password);
    await page.goto(`/tickets/${ticketId}`);
    await openTransfer(page, { transfer: 'Transfer', more: 'more options' });
    await page.getByRole('dialog').getByRole('combobox', { name: 'Transfer to' }).click();
    await expect(page.getByTestId('transfer-user-option').filter({ hasText: colleague.name })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await transferShot(page, 'en-phone-list');
  });
});
