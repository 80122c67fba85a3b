import { expect, test } from '@playwright/test';
import { api, apiLogin, connectedSimulator, uiLogin, unique } from './support/api';
import {
  addConnectionThroughUi,
  connectionId,
  connectionRow,
  connectionsBadge,
  customerNumber,
  deskReplies,
  ticketOf,
} from './support/connections';

/**
 * Issue 3 in Chromium: an admin adds a simulator connection, its QR code is scanned through the
 * /simulator page in another tab, and the connections page follows live (dialog, status, drawer badge).
 */

test('a simulator connection is paired through the simulator page and turns CONNECTED live', async ({ page, context, request }) => {
  await uiLogin(page);
  await page.goto('/connections');
  await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();

  const name = await addConnectionThroughUi(page, { name: `Sim ${unique()}` });
  const row = connectionRow(page, name);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'qrcode');

  // The drawer shows '!' while a connection waits for its QR code.
  await expect(connectionsBadge(page)).toBeVisible();
  await expect(connectionsBadge(page)).toContainText('!');

  await row.getByRole('button', { name: 'QR code' }).click();
  const dialog = page.getByRole('dialog', { name: /scan the qr code/i });
  await expect(dialog).toBeVisible();
  const qr = dialog.getByRole('img', { name: 'QR code' });
  await expect(qr).toBeVisible();
  await expect(qr.locator('path').first()).toBeAttached();

  // A second tab: the simulator page scans the pending QR code.
  const simulator = await context.newPage();
  const id = await connectionId(request, name);
  await simulator.goto(`/simulator?connection=${id}`);
  await expect(simulator.getByRole('combobox', { name: 'Simulated connection' })).toContainText(name);
  await simulator.getByRole('button', { name: 'Scan QR code' }).click();
  await expect(simulator.getByRole('button', { name: 'Scan QR code' })).toBeHidden();
  await simulator.close();

  // Back on the first tab, without a reload: the dialog closed, the status is live, the badge is gone.
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'CONNECTED');
  await expect(row).toContainText('Connected');
  await expect(row.getByRole('button', { name: 'Disconnect' })).toBeVisible();
  await expect(connectionsBadge(page)).toBeHidden();

  // Disconnect and ask for a new QR code: the badge comes back, the QR button too.
  await row.getByRole('button', { name: 'Disconnect' }).click();
  // It asks first.
  await page.getByRole('dialog', { name: `Disconnect ${name}?` }).getByRole('button', { name: 'Disconnect' }).click();
  await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'DISCONNECTED');
  await expect(connectionsBadge(page)).toBeVisible();
  await row.getByRole('button', { name: 'New QR' }).click();
  await expect(row.getByRole('button', { name: 'QR code' })).toBeVisible();

  // Leave no connection waiting for a QR code behind (later specs see the same drawer badge).
  await api(request, await apiLogin(request), 'DELETE', `/api/whatsapp/${id}`);
  await expect(row).toBeHidden();
});

test('edits and deletes a connection with a confirmation', async ({ page, request }) => {
  const connection = await connectedSimulator(request, { name: `Edit ${unique()}` });
  await uiLogin(page);
  await page.goto('/connections');
  const row = connectionRow(page, connection.name);
  await row.getByRole('button', { name: `edit ${connection.name}` }).click();
  const modal = page.getByRole('dialog', { name: 'Edit connection' });
  await expect(modal.getByLabel('Name')).toHaveValue(connection.name);
  await expect(modal.getByRole('combobox', { name: 'Channel' })).toHaveAttribute('aria-disabled', 'true');
  const renamed = `Renamed ${unique()}`;
  await modal.getByLabel('Name').fill(renamed);
  await modal.getByLabel('Greeting message').fill('Hello from the desk');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal).toBeHidden();
  const renamedRow = connectionRow(page, renamed);
  await expect(renamedRow).toBeVisible();

  await renamedRow.getByRole('button', { name: `delete ${renamed}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${renamed}?` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Connection deleted successfully!')).toBeVisible();
  await expect(renamedRow).toBeHidden();
});

test('chats as a customer on the simulator page and marks the desk reply read', async ({ page, request }) => {
  const connection = await connectedSimulator(request, { name: `Chat ${unique()}` });
  const number = customerNumber();
  await uiLogin(page);
  await page.goto(`/simulator?connection=${connection.id}`);
  await page.getByLabel('Phone number').fill(number);
  await page.getByLabel('Name (optional)').fill('Carla Customer');
  await page.getByRole('button', { name: 'Chat as this customer' }).click();
  const chat = page.getByTestId('simulator-chat');
  await chat.getByRole('textbox', { name: 'message' }).fill('Hi, I need help');
  await chat.getByRole('button', { name: 'send' }).click();
  await expect(chat.getByTestId('customer-message')).toContainText('Hi, I need help');

  const ticketId = await ticketOf(request, number);
  await deskReplies(request, ticketId, 'How can we help?');
  const reply = chat.getByTestId('desk-message').filter({ hasText: 'How can we help?' });
  await expect(reply).toBeVisible();
  await reply.getByRole('button', { name: 'Mark as read' }).click();
  await expect(reply.getByTestId('desk-ack')).toHaveAttribute('data-ack', '3');
  await expect(page.getByRole('list', { name: 'Known contacts' })).toContainText('Carla Customer');
});
