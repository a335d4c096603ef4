import { html, nothing, type TemplateResult } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import type { Translate } from '../i18n/localize.ts';
import { zoneFacts } from './check-zone.ts';
import './evidence-image.ts';
import { numberFormat } from './format.ts';

type Check = Schemas['SessionResult']['checks'][number];
type EvidenceUpload = Schemas['EvidenceUpload'];

/** How many liveness frames sit beside the portrait: the closest ones, as the face match scored them. */
const BEST_FRAMES = 2;

export interface ShownImage {
  upload: EvidenceUpload;
  /** A `blob:` URL, '' while loading, 'failed' when it could not be fetched. */
  url: string;
  caption: string;
}

/**
 * The liveness frames the face match found closest to the portrait (lowest distance first), from the
 * check's parallel `frames_used` / `frame_scores`; without them, the first frames.
 */
export function bestFrames(
  frames: readonly ShownImage[],
  check: Check | null,
): { image: ShownImage; score: number | null }[] {
  const used = Array.isArray(check?.details?.frames_used) ? (check.details.frames_used as unknown[]) : [];
  const scores = Array.isArray(check?.details?.frame_scores) ? (check.details.frame_scores as unknown[]) : [];
  const scoreOf = new Map<number, number>();
  used.forEach((index, position) => {
    const score = Number(scores[position]);
    if (Number.isFinite(score)) scoreOf.set(Number(index), score);
  });
  return frames
    .map((image) => ({ image, score: scoreOf.get(image.upload.frame_index ?? -1) ?? null }))
    .sort((a, b) => (a.score ?? Number.POSITIVE_INFINITY) - (b.score ?? Number.POSITIVE_INFINITY))
    .slice(0, BEST_FRAMES);
}

function viewer(t: Translate, image: ShownImage, note: string | null): TemplateResult {
  const { upload, url, caption } = image;
  return html`<div class="face">
    <idv-evidence-image
      .caption=${caption}
      .alt=${t('imageAlt', { kind: caption, width: upload.width, height: upload.height })}
      .src=${url && url !== 'failed' ? url : ''}
      .failed=${url === 'failed'}
    ></idv-evidence-image>
    ${note ? html`<p class="muted">${note}</p>` : nothing}
  </div>`;
}

/**
 * The document's portrait side beside the best liveness frames, side by side, with the face match's
 * zone, score and thresholds under them: what a reviewer compares first when the face match is unsure.
 *
 * @example
 *   html`${faceComparison(t, 'en', front, frames, faceMatch)}`
 */
export function faceComparison(
  t: Translate,
  locale: string,
  portrait: ShownImage | null,
  frames: readonly ShownImage[],
  check: Check | null,
): TemplateResult {
  const format = numberFormat(locale, { maximumFractionDigits: 4 });
  const best = bestFrames(frames, check);
  return html`<section id="face-comparison" class="panel" aria-labelledby="face-comparison-title">
    <h3 id="face-comparison-title">${t('faceComparisonTitle')}</h3>
    <div class="side-by-side">
      ${portrait ? viewer(t, portrait, null) : html`<p class="muted">${t('noPortrait')}</p>`}
      ${best.map(({ image, score }) =>
        viewer(t, image, score === null ? null : t('frameScore', { score: format.format(score) })),
      )}
      ${best.length === 0 ? html`<p class="muted">${t('noFrames')}</p>` : nothing}
    </div>
    ${
      check?.details
        ? html`<dl class="facts">${zoneFacts(t, locale, check.details)}</dl>`
        : html`<p class="muted">${t('noFaceMatch')}</p>`
    }
  </section>`;
}
