/**
 * Photos an end-user without a camera would pick from their files, drawn on a canvas so no binary lives
 * in git: a sharp, evenly lit ID card at phone-photo size, and selfies in which the head is in another
 * place for each prompted action. They are meant to pass the server's quality checks honestly (size,
 * sharpness, brightness, no glare; selfies that are not the same picture twice).
 */

function canvasOf(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('2D canvas unavailable');
  return [canvas, ctx];
}

function toJpegFile(canvas: HTMLCanvasElement, name: string): Promise<File> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) =>
        blob ? resolve(new File([blob], name, { type: 'image/jpeg' })) : reject(new Error('toBlob failed')),
      'image/jpeg',
      0.9,
    ),
  );
}

/** A 1600×1000 photo of an ID card (ID-1 proportions) lying on a desk, one side of it. */
export function documentPhoto(side: 'front' | 'back'): Promise<File> {
  const [canvas, ctx] = canvasOf(1600, 1000);
  const desk = ctx.createLinearGradient(0, 0, 1600, 1000);
  desk.addColorStop(0, '#5d646b');
  desk.addColorStop(1, '#757c84');
  ctx.fillStyle = desk;
  ctx.fillRect(0, 0, 1600, 1000);
  ctx.fillStyle = '#e3e6ea';
  ctx.beginPath();
  ctx.roundRect(250, 150, 1100, 694, 36);
  ctx.fill();
  ctx.fillStyle = '#2f5d9a';
  ctx.fillRect(250, 150, 1100, 90);
  ctx.fillStyle = '#ffffff';
  ctx.font = 'bold 44px sans-serif';
  ctx.fillText(side === 'front' ? 'RÉPUBLIQUE FRANÇAISE' : 'CARTE NATIONALE', 290, 212);
  ctx.fillStyle = '#1d1f22';
  ctx.font = '34px sans-serif';
  if (side === 'front') {
    ctx.fillStyle = '#b9a48f';
    ctx.fillRect(300, 290, 280, 360);
    ctx.fillStyle = '#1d1f22';
    const lines = [
      'Nom: DUBOIS',
      'Prénoms: LÉA',
      'Né(e) le: 02.09.1988',
      'N°: E2EUPL001',
      'Expire: 31.01.2033',
    ];
    for (const [i, line] of lines.entries()) ctx.fillText(line, 630, 330 + i * 62);
  } else {
    ctx.fillText('Adresse: 12 RUE DES LILAS 75011 PARIS', 300, 320);
    ctx.fillText('Taille: 1,68 m   Délivrée le: 01.02.2023', 300, 380);
  }
  ctx.font = '40px monospace';
  ctx.fillText('IDFRADUBOIS<<<<<<<<<<<<<<<<<<<<<<<<<', 290, 740);
  ctx.fillText('E2EUPL0013FRA8809021F3301314<<<<<<<', 290, 800);
  return toJpegFile(canvas, `id-card-${side}.jpg`);
}

/** A 960×1280 portrait with the head moved for action number `index` (left, right, up…). */
export function selfiePhoto(index: number): Promise<File> {
  const [canvas, ctx] = canvasOf(960, 1280);
  ctx.fillStyle = '#8fa3b5';
  ctx.fillRect(0, 0, 960, 1280);
  // Some room behind: a door frame and a shelf give the background edges, as real rooms have.
  ctx.fillStyle = '#6c7f90';
  ctx.fillRect(60, 120, 200, 900);
  ctx.fillRect(640, 300, 300, 40);
  const offsets: Array<[number, number]> = [
    [-150, 0],
    [150, 0],
    [0, -140],
    [0, 120],
  ];
  const [dx, dy] = offsets[index % offsets.length] ?? [0, 0];
  const cx = 480 + dx;
  const cy = 560 + dy;
  ctx.fillStyle = '#3b4a5a';
  ctx.beginPath();
  ctx.ellipse(cx, cy + 520, 330, 260, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#d9a98a';
  ctx.beginPath();
  ctx.ellipse(cx, cy, 170, 225, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#3a2a20';
  ctx.beginPath();
  ctx.ellipse(cx, cy - 150, 180, 100, 0, Math.PI, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#222';
  for (const ex of [-60, 60]) {
    ctx.beginPath();
    ctx.ellipse(cx + ex, cy - 30, 22, 14, 0, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = '#8c3b3b';
  ctx.fillRect(cx - 55, cy + 90, 110, 16);
  return toJpegFile(canvas, `selfie-${index + 1}.jpg`);
}
