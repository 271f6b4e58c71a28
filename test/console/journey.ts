// What the journeys share: the console's own texts in each language (the tests find controls by role and by the
// very names the page shows), opening a page signed in as a sandbox persona, in French or in English.
import type { Browser, Page } from 'playwright-core';
import { en } from '../../console/src/locales/en.js';
import { fr } from '../../console/src/locales/fr.js';
import { watchPage, type ConsoleStack } from './stack.js';

export type Language = 'fr' | 'en';
export const TEXTS = { fr, en } as const;
export type Texts = typeof fr;

/** One i18next plural, as the page writes it for `count`. */
export const plural = (forms: object, key: string, count: number): string =>
  String((forms as Record<string, unknown>)[`${key}_${count === 1 ? 'one' : 'other'}`] ?? '').replace('{{count}}', String(count));

export interface Visit {
  page: Page;
  texts: Texts;
  problems: string[];
  close(): Promise<void>;
}

/** A page in a context of its own, in `language`, signed in as the persona `personaId` (sandbox mode). */
export async function openAs(
  browser: Browser,
  stack: ConsoleStack,
  options: { language: Language; persona?: string; path?: string; width?: number },
): Promise<Visit> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
    timezoneId: 'Africa/Porto-Novo',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  // The suite shares two cores with every other file: a step may wait longer than Playwright's 30 s default there.
  page.setDefaultTimeout(60_000);
  const { problems } = watchPage(page, stack.gateway.url);
  await page.goto(`${stack.consoleUrl}${options.path ?? '/payments'}`);
  const texts = TEXTS[options.language];
  if (options.language === 'en') {
    await page.getByRole('button', { name: fr.language.switchTo }).click();
    await page.getByRole('navigation', { name: en.nav.label }).waitFor();
  }
  if (options.persona) {
    const persona = stack.personas.find((p) => p.id === options.persona)!;
    await page.getByLabel(texts.session.persona).selectOption({ label: persona.name[options.language] });
  }
  return { page, texts, problems, close: () => context.close() };
}
