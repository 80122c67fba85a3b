import { describe, expect, it } from 'vitest';
import { nextEvent, useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true, user: true });

interface QuickAnswer {
  id: number;
  shortcut: string;
  message: string;
}

let seq = 0;
async function createQuickAnswer(extra: Partial<QuickAnswer> = {}): Promise<QuickAnswer> {
  seq += 1;
  const res = await t.call('POST', '/api/quickAnswers', {
    token: t.user,
    body: { shortcut: `short${seq}`, message: `Stored message number ${seq}`, ...extra },
  });
  expect(res.status).toBe(201);
  return res.body as QuickAnswer;
}

describe('POST /api/quickAnswers', () => {
  it('lets any signed-in user create a quick answer', async () => {
    const res = await t.call('POST', '/api/quickAnswers', {
      token: t.user,
      body: { shortcut: 'hello', message: 'Hello! How can I help you today?' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), shortcut: 'hello', message: 'Hello! How can I help you today?' });
  });

  it('validates shortcut 2–50 and message 8–30000 with the specification messages', async () => {
    const short = await t.call('POST', '/api/quickAnswers', { token: t.user, body: { shortcut: 'h', message: 'seven!!' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ERR_VALIDATION');
    expect(short.body.issues).toEqual([
      { path: 'shortcut', message: 'Too Short!' },
      { path: 'message', message: 'Too Short!' },
    ]);
    const long = await t.call('POST', '/api/quickAnswers', {
      token: t.user,
      body: { shortcut: 's'.repeat(51), message: 'm'.repeat(30001) },
    });
    expect(long.body.issues).toEqual([
      { path: 'shortcut', message: 'Too Long!' },
      { path: 'message', message: 'Too Long!' },
    ]);
    const empty = await t.call('POST', '/api/quickAnswers', { token: t.user, body: {} });
    expect(empty.body.issues).toEqual([
      { path: 'shortcut', message: 'Required' },
      { path: 'message', message: 'Required' },
    ]);
    const limits = await t.call('POST', '/api/quickAnswers', {
      token: t.user,
      body: { shortcut: 'ok', message: 'm'.repeat(30000) },
    });
    expect(limits.status).toBe(201);
  });

  it('needs a signed-in user', async () => {
    const res = await t.call('POST', '/api/quickAnswers', { body: { shortcut: 'anon', message: 'anonymous message' } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });
});

describe('GET /api/quickAnswers', () => {
  it('searches shortcut and message, lowercased, from the first character, ordered by shortcut', async () => {
    const b = await createQuickAnswer({ shortcut: 'Bqsearch', message: 'Second answer text' });
    const a = await createQuickAnswer({ shortcut: 'aqsearch', message: 'First answer text' });
    const byMessage = await createQuickAnswer({ shortcut: 'other', message: 'Mentions QSEARCH inside' });
    const res = await t.call('GET', '/api/quickAnswers?searchParam=QSEARCH', { token: t.user });
    expect(res.status).toBe(200);
    expect(res.body.quickAnswers.map((q: QuickAnswer) => q.id)).toEqual([a.id, b.id, byMessage.id]);
    expect(res.body).toMatchObject({ count: 3, hasMore: false });
    const oneChar = await t.call('GET', '/api/quickAnswers?searchParam=B', { token: t.user });
    expect(oneChar.body.quickAnswers.map((q: QuickAnswer) => q.id)).toContain(b.id);
  });

  it('lists the shortcuts that start with the search first, then those that contain it, then the messages', async () => {
    const byMessage = await createQuickAnswer({ shortcut: 'pix', message: 'Nossa chave: preencha o formulário' });
    const inside = await createQuickAnswer({ shortcut: 'aprovado', message: 'Seu cadastro está ok' });
    const starts = await createQuickAnswer({ shortcut: 'prazo', message: 'Entrega em 3 dias' });
    const res = await t.call('GET', '/api/quickAnswers?searchParam=pr', { token: t.user });
    expect(res.status).toBe(200);
    const mine = [byMessage.id, inside.id, starts.id];
    const ids = (res.body.quickAnswers as QuickAnswer[]).map((q) => q.id).filter((id) => mine.includes(id));
    expect(ids).toEqual([starts.id, inside.id, byMessage.id]);
  });

  it('lists the quick answers without a search too', async () => {
    await createQuickAnswer({ shortcut: 'sembusca' });
    const all = await t.call('GET', '/api/quickAnswers', { token: t.admin });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.count).toBeGreaterThan(0);
  });

  it('treats % and _ in the search as plain text', async () => {
    const res = await t.call('GET', '/api/quickAnswers?searchParam=%25', { token: t.user });
    expect(res.body.quickAnswers).toEqual([]);
  });

  it('gives 20 quick answers a page with hasMore and count', async () => {
    for (let i = 0; i < 21; i += 1) await createQuickAnswer({ shortcut: `page${String(i).padStart(2, '0')}` });
    const page1 = await t.call('GET', '/api/quickAnswers?searchParam=page&pageNumber=1', { token: t.admin });
    expect(page1.body.quickAnswers).toHaveLength(20);
    expect(page1.body).toMatchObject({ hasMore: true, count: 21 });
    const page2 = await t.call('GET', '/api/quickAnswers/?searchParam=page&pageNumber=2', { token: t.admin });
    expect(page2.body.quickAnswers.map((q: QuickAnswer) => q.shortcut)).toEqual(['page20']);
    expect(page2.body.hasMore).toBe(false);
  });

  it('gives one by id, or ERR_NO_QUICK_ANSWER_FOUND (404)', async () => {
    const quickAnswer = await createQuickAnswer();
    const res = await t.call('GET', `/api/quickAnswers/${quickAnswer.id}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(quickAnswer);
    const missing = await t.call('GET', '/api/quickAnswers/999999', { token: t.admin });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_QUICK_ANSWER_FOUND');
  });
});

describe('PUT and DELETE /api/quickAnswers/:id', () => {
  it("lets any signed-in user edit and delete a quick answer, even an admin's", async () => {
    const res = await t.call('POST', '/api/quickAnswers', { token: t.admin, body: { shortcut: 'bye', message: 'Goodbye and thanks!' } });
    const updated = await t.call('PUT', `/api/quickAnswers/${res.body.id}`, {
      token: t.user,
      body: { shortcut: 'bye2', message: 'Goodbye, thank you!' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: res.body.id, shortcut: 'bye2', message: 'Goodbye, thank you!' });
    const deleted = await t.call('DELETE', `/api/quickAnswers/${res.body.id}`, { token: t.user });
    expect(deleted.status).toBe(200);
    expect((await t.call('GET', `/api/quickAnswers/${res.body.id}`, { token: t.user })).status).toBe(404);
  });

  it('validates an edit and answers ERR_NO_QUICK_ANSWER_FOUND for an unknown id', async () => {
    const quickAnswer = await createQuickAnswer();
    const invalid = await t.call('PUT', `/api/quickAnswers/${quickAnswer.id}`, { token: t.user, body: { shortcut: 'x', message: 'long enough' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues).toEqual([{ path: 'shortcut', message: 'Too Short!' }]);
    const missingPut = await t.call('PUT', '/api/quickAnswers/999999', { token: t.user, body: { shortcut: 'xx', message: 'long enough' } });
    expect(missingPut.status).toBe(404);
    expect(missingPut.body.error).toBe('ERR_NO_QUICK_ANSWER_FOUND');
    const missingDelete = await t.call('DELETE', '/api/quickAnswers/999999', { token: t.user });
    expect(missingDelete.status).toBe(404);
    expect(missingDelete.body.error).toBe('ERR_NO_QUICK_ANSWER_FOUND');
  });
});

describe('quickAnswer socket events', () => {
  it('tells every signed-in socket about create, update and delete', async () => {
    const socket = await t.socket(t.admin);
    const created = nextEvent<{ action: string; quickAnswer: QuickAnswer }>(socket, 'quickAnswer');
    const quickAnswer = await createQuickAnswer({ shortcut: 'live' });
    expect(await created).toMatchObject({ action: 'create', quickAnswer: { id: quickAnswer.id, shortcut: 'live' } });

    const updated = nextEvent<{ action: string; quickAnswer: QuickAnswer }>(socket, 'quickAnswer');
    await t.call('PUT', `/api/quickAnswers/${quickAnswer.id}`, { token: t.user, body: { shortcut: 'live2', message: 'Updated live message' } });
    expect(await updated).toMatchObject({ action: 'update', quickAnswer: { shortcut: 'live2' } });

    const deleted = nextEvent(socket, 'quickAnswer');
    await t.call('DELETE', `/api/quickAnswers/${quickAnswer.id}`, { token: t.user });
    expect(await deleted).toEqual({ action: 'delete', quickAnswerId: quickAnswer.id });
  });
});
