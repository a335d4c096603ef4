import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { sharedStyles } from '../../../../src/components/shared-styles.ts';
import { consumeTranslator } from '../context.ts';
import { evidenceImageStyles } from './evidence-image-styles.ts';

const MIN_ZOOM = 1;
const MAX_ZOOM = 4;
const ZOOM_STEP = 0.5;

/**
 * `<idv-evidence-image>`: one uploaded image with zoom and rotate buttons. The image arrives as a `blob:`
 * URL the screen fetched with the console's token (evidence has no public URL). Zoom and rotation are set
 * through the CSSOM after each render: a CSP without 'unsafe-inline' blocks `style="…"` attributes, which
 * is what a `style=${…}` binding writes (styleMap too, on its first render). Its buttons' words come from
 * the console's translator.
 *
 * @example
 *   html`<idv-evidence-image .src=${objectUrl} .alt=${'Document, front'}></idv-evidence-image>`
 */
export class EvidenceImage extends LitElement {
  static override styles = [sharedStyles, evidenceImageStyles];

  static override properties: PropertyDeclarations = {
    src: {},
    alt: {},
    caption: {},
    failed: { type: Boolean },
    zoom: { state: true },
    rotation: { state: true },
  };

  declare src: string;
  declare alt: string;
  declare caption: string;
  declare failed: boolean;
  declare zoom: number;
  declare rotation: number;
  readonly #t = consumeTranslator(this);

  constructor() {
    super();
    this.src = '';
    this.alt = '';
    this.caption = '';
    this.failed = false;
    this.zoom = 1;
    this.rotation = 0;
  }

  protected override updated(): void {
    const img = this.renderRoot.querySelector('img');
    if (!img) return;
    // Zoom widens the image (so the frame scrolls to every part of it); rotation is a transform.
    const zoomed = this.zoom > 1;
    img.style.setProperty('transform', `rotate(${this.rotation}deg)`);
    img.style.setProperty('inline-size', zoomed ? `${this.zoom * 100}%` : 'auto');
    img.style.setProperty('max-inline-size', zoomed ? 'none' : '100%');
    img.style.setProperty('max-block-size', zoomed ? 'none' : '100%');
  }

  /**
   * Keys on the focused frame: + and − zoom, ] and [ rotate, 0 resets. Handled keys are marked
   * (preventDefault), so a screen's own single-letter shortcuts leave them alone; arrows scroll the frame.
   */
  #key(event: KeyboardEvent): void {
    if (!this.src || this.failed || event.ctrlKey || event.metaKey || event.altKey) return;
    switch (event.key) {
      case '+':
      case '=':
        this.zoom = Math.min(MAX_ZOOM, this.zoom + ZOOM_STEP);
        break;
      case '-':
        this.zoom = Math.max(MIN_ZOOM, this.zoom - ZOOM_STEP);
        break;
      case ']':
        this.rotation = (this.rotation + 90) % 360;
        break;
      case '[':
        this.rotation = (this.rotation + 270) % 360;
        break;
      case '0':
        this.zoom = 1;
        this.rotation = 0;
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  override render() {
    const t = this.#t();
    const shown = this.src !== '' && !this.failed;
    return html`<figure>
      <figcaption>${this.caption}</figcaption>
      <div class="frame" tabindex="0" role="group" aria-label=${this.caption}
        aria-keyshortcuts="+ - ] [ 0" @keydown=${(event: KeyboardEvent) => this.#key(event)}>
        ${
          this.failed
            ? html`<p class="error">${t('evidenceFailed')}</p>`
            : this.src
              ? html`<img src=${this.src} alt=${this.alt} decoding="async" />`
              : html`<div class="spinner" aria-hidden="true"></div>`
        }
      </div>
      ${
        // The tools are there from the start, disabled until the image is (and when it failed): appearing
        // with it, they would push everything below the viewer down as each image arrives (layout shift).
        html`<div class="tools">
            <button type="button" class="secondary" aria-label=${`${t('zoomIn')}: ${this.caption}`}
              ?disabled=${!shown || this.zoom >= MAX_ZOOM} @click=${() => (this.zoom = Math.min(MAX_ZOOM, this.zoom + ZOOM_STEP))}>+</button>
            <button type="button" class="secondary" aria-label=${`${t('zoomOut')}: ${this.caption}`}
              ?disabled=${!shown || this.zoom <= MIN_ZOOM} @click=${() => (this.zoom = Math.max(MIN_ZOOM, this.zoom - ZOOM_STEP))}>−</button>
            <button type="button" class="secondary" aria-label=${`${t('rotate')}: ${this.caption}`}
              ?disabled=${!shown} @click=${() => (this.rotation = (this.rotation + 90) % 360)}>↻</button>
            <button type="button" class="secondary" aria-label=${`${t('rotateBack')}: ${this.caption}`}
              ?disabled=${!shown} @click=${() => (this.rotation = (this.rotation + 270) % 360)}>↺</button>
            ${
              this.zoom !== 1 || this.rotation !== 0
                ? html`<button type="button" class="secondary" @click=${() => {
                    this.zoom = 1;
                    this.rotation = 0;
                  }}>${t('resetView')}</button>`
                : nothing
            }
          </div>`
      }
    </figure>`;
  }
}

if (!customElements.get('idv-evidence-image')) customElements.define('idv-evidence-image', EvidenceImage);
