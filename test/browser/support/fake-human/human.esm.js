// A stand-in for Human's browser bundle (src/liveness/face-guide.ts imports `<base>human.esm.js`): every
// detect() reports one face in the pose the test last set with `globalThis.fakeHumanPose` (degrees, in
// the server's signs: yaw < 0 the person's own left, pitch < 0 looking up; smile 0–1), or none before it
// is set. It lets a browser test script what the face model sees, which a fake camera cannot.
const RADIANS = Math.PI / 180;

export class Human {
  config = { face: { emotion: { enabled: false }, iris: { enabled: false } } };
  tf = { getBackend: () => 'wasm' };

  async load() {}

  async detect(canvas) {
    const pose = globalThis.fakeHumanPose;
    // The warm-up look is at a 64 px canvas: no face there, as with the real model.
    if (!pose || canvas.width < 100) return { face: [] };
    const { width, height } = canvas;
    return {
      face: [
        {
          box: [width * 0.3, height * 0.2, width * 0.4, height * 0.5],
          mesh: [],
          rotation: { angle: { yaw: pose.yaw * RADIANS, pitch: (pose.pitch ?? 0) * RADIANS, roll: 0 } },
          emotion: this.config.face.emotion.enabled
            ? [{ emotion: 'happy', score: pose.smile ?? 0 }]
            : undefined,
        },
      ],
    };
  }
}
