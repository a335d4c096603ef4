import { Task, TaskStatus } from '@lit/task';
import {
  html,
  LitElement,
  nothing,
  type PropertyDeclarations,
  type ReactiveController,
  type TemplateResult,
} from 'lit';
import { sharedStyles } from '../../../../src/components/shared-styles.ts';
import { ConsoleApiError } from '../api/console-api-error.ts';
import type { ConsoleApi } from '../api/console-api.ts';
import type { Capability, Environment, Schemas } from '../api/console-api.ts';
import { consumeApi, consumeTranslator } from '../context.ts';
import type { Translate } from '../i18n/localize.ts';
import { consoleStyles } from './console-styles.ts';
import { formatDateTime } from './format.ts';

type Me = Schemas['Me'];

/**
 * What every screen gets from the shell; a new object whenever one of its members changes. The
 * translator and the API client come by context instead (context.ts), as for any element in the console.
 */
export interface ScreenContext {
  locale: string;
  /** Null only on the public screens (login, accepting an invitation). */
  me: Me | null;
  environment: Environment;
}

/** Asks the shell to show another console page (`href` under /console). */
export class NavigateEvent extends Event {
  readonly href: string;
  readonly replace: boolean;
  constructor(href: string, replace = false) {
    super('idv-navigate', { bubbles: true, composed: true });
    this.href = href;
    this.replace = replace;
  }
}

/**
 * Tells the shell a login succeeded: it stores the token and opens the next page. `enrolmentOnly`: the
 * token may only enrol a second factor (the tenant requires one), so the shell opens the security page.
 */
export class LoggedInEvent extends Event {
  readonly token: string;
  readonly expiresIn: number;
  readonly enrolmentOnly: boolean;
  constructor(token: string, expiresIn: number, enrolmentOnly = false) {
    super('idv-logged-in', { bubbles: true, composed: true });
    this.token = token;
    this.expiresIn = expiresIn;
    this.enrolmentOnly = enrolmentOnly;
  }
}

/**
 * Tells the shell to use a new token for the same session from now on (the server exchanged it when the
 * user enrolled a second factor: the old one is revoked). Unlike LoggedInEvent, no navigation.
 */
export class TokenRenewedEvent extends Event {
  readonly token: string;
  readonly expiresIn: number;
  constructor(token: string, expiresIn: number) {
    super('idv-token-renewed', { bubbles: true, composed: true });
    this.token = token;
    this.expiresIn = expiresIn;
  }
}

/**
 * The base of every console screen: the context from the shell, the route's params and query, `t` and
 * the API client (by context), the helpers every screen needs (capabilities, navigation, focus, the
 * heading, dates) and the shared presentation of loading and failures. A screen that shows data loads it
 * with a @lit/task `Task` of its own, whose args say what reloads it (a new run aborts the previous one);
 * a screen that leaves the page aborts its tasks, and runs them again when put back.
 *
 * @example
 *   class ThingsScreen extends ConsoleScreen {
 *     readonly #things = new Task(this, {
 *       args: () => [this.ctx.environment] as const,
 *       task: (_, { signal }) => this.api.get('/v1/things', { signal }),
 *     });
 *     override render() {
 *       return html`${this.heading('navThings')} ${this.renderTask(this.#things)} ${this.#things.value ? … : nothing}`;
 *     }
 *   }
 */
export class ConsoleScreen extends LitElement {
  static override styles = [sharedStyles, consoleStyles];

  static override properties: PropertyDeclarations = {
    ctx: { attribute: false },
    params: { attribute: false },
    query: { attribute: false },
    fragment: { attribute: false },
  };

  declare ctx: ScreenContext;
  declare params: Record<string, string>;
  declare query: URLSearchParams;
  /** The URL's fragment (never sent to the server). */
  declare fragment: string;

  /** Subscribed: a change of language re-renders the screen in the new one. */
  readonly #t = consumeTranslator(this);
  readonly #api = consumeApi(this);
  /** The screen's own tasks (its data), aborted when it leaves the page and run again when it comes back. */
  readonly #tasks: Task<readonly unknown[], unknown>[] = [];
  /** Whether the screen has been in the page before (then being put back runs its tasks again). */
  #connectedBefore = false;

  constructor() {
    super();
    this.params = {};
    this.query = new URLSearchParams();
    this.fragment = '';
  }

  /** The shell's API client (by context). */
  get api(): ConsoleApi {
    return this.#api();
  }

  /** `t` in the shell's language (by context). */
  get t(): Translate {
    return this.#t();
  }

  /** Whether the signed-in user holds a capability (API.md §3); the server enforces it regardless. */
  can(capability: Capability): boolean {
    return this.ctx.me?.capabilities.includes(capability) ?? false;
  }

  navigate(href: string, replace = false): void {
    this.dispatchEvent(new NavigateEvent(href, replace));
  }

  /** The screen's main heading, which the shell focuses after each navigation. */
  async focusHeading(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus({ preventScroll: false });
  }

  /** Moves focus into the screen after a render (a confirmation that appeared, a result to read). */
  async focusAfterRender(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Notes each `Task` the screen declares (a Task adds itself as a controller), for leaving and coming back. */
  override addController(controller: ReactiveController): void {
    super.addController(controller);
    if (controller instanceof Task) this.#tasks.push(controller);
  }

  /**
   * A screen put back into the page loads again: its tasks that ran before run again (their old runs were
   * aborted when it left).
   */
  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.#connectedBefore) {
      this.#connectedBefore = true;
      return;
    }
    for (const task of this.#tasks) if (task.status !== TaskStatus.INITIAL) void task.run();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const task of this.#tasks) task.abort();
  }

  date(iso: string | null | undefined): string {
    return formatDateTime(this.ctx.locale, iso);
  }

  /** Whether the page shows one environment's data (false for tenant-wide pages: team, keys, audit log). */
  protected get environmentScoped(): boolean {
    return true;
  }

  /** The page heading, with the sandbox mark when the data shown is sandbox data. */
  heading(text: string, extra: unknown = nothing): TemplateResult {
    return html`<div class="heading-row">
      <h1 tabindex="-1">${text}</h1>
      ${
        this.environmentScoped && this.ctx.environment === 'sandbox'
          ? html`<span class="badge sandbox-badge">${this.t('sandboxBadge')}</span>`
          : nothing
      }
      ${extra}
    </div>`;
  }

  /** A failure in words: the API's detail and code, and the request id support needs. */
  errorText(error: unknown): string {
    if (error instanceof ConsoleApiError) {
      if (error.status === 0) return this.t('networkError');
      return this.t('errorWithCode', { message: error.message, code: error.code });
    }
    return error instanceof Error ? error.message : String(error);
  }

  /** A failure (of a load or an action), announced: `errorText()` and the request id. */
  renderError(error: unknown): unknown {
    if (!error) return nothing;
    const requestId = error instanceof ConsoleApiError ? error.problem.request_id : undefined;
    return html`<div class="notice bad" role="alert">
      <p class="error">${this.errorText(error)}</p>
      ${requestId ? html`<p class="muted">${this.t('requestId', { id: requestId })}</p>` : nothing}
    </div>`;
  }

  /** The notice, announced, that the screen's data is on its way. */
  loadingNotice(): TemplateResult {
    return html`<p role="status" class="muted">${this.t('loading')}</p>`;
  }

  /** What the state of a screen's `task` shows: the loading notice while it runs, its failure once it failed. */
  renderTask(task: Task<readonly unknown[], unknown>): unknown {
    return task.render({ pending: () => this.loadingNotice(), error: (error) => this.renderError(error) });
  }
}
