/**
 * The 3D stage: a WebGL renderer on the page's canvas, a perspective camera, orbit / pan / zoom
 * (three's OrbitControls: drag to orbit, right-drag or shift-drag to pan, wheel or pinch to
 * zoom) and lights. Frames are drawn on demand (after a change), never in a busy loop, so an
 * idle viewer costs nothing. Coordinates are the plan's (cm): x front wall → door, y up, z right
 * wall → left wall, which is a right-handed frame like three's, drawn as it is.
 */
import { AmbientLight, Color, DirectionalLight, PerspectiveCamera, Scene, Vector3, WebGLRenderer, type Object3D } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

/** A box in plan coordinates, cm. */
export interface CargoBox {
  length: number;
  width: number;
  height: number;
}

/** True when this browser draws WebGL in software (asked of a throwaway context, then released). */
function softwareWebGl(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|softpipe|software|microsoft basic render/i.test(name);
}

export class Stage {
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(32, 1, 1, 100_000);
  readonly renderer: WebGLRenderer;
  readonly controls: OrbitControls;
  private pending = false;
  private readonly key = new DirectionalLight(0xffffff, 2.1);
  private readonly fill = new DirectionalLight(0xffffff, 0.6);

  /** True when WebGL is drawn by the CPU (no GPU: SwiftShader, llvmpipe…). */
  readonly software: boolean;

  /**
   * Throws when WebGL is not available (three's renderer cannot get a context). Without a GPU,
   * multisampling is left off and one pixel per CSS pixel drawn: a software rasterizer spends
   * much of a frame on them (measured in headless Chromium with SwiftShader: a 2,000-unit load
   * orbited at about 400 ms a frame with them, 180–220 ms without).
   */
  constructor(readonly canvas: HTMLCanvasElement, private readonly frame: HTMLElement) {
    this.software = softwareWebGl();
    this.renderer = new WebGLRenderer({ canvas, antialias: !this.software, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(this.software ? 1 : Math.min(window.devicePixelRatio || 1, 2));
    this.scene.background = new Color('#eef1f4');
    this.scene.add(new AmbientLight(0xffffff, 1.1), this.key, this.fill, this.key.target, this.fill.target);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', () => this.requestRender());
    new ResizeObserver(() => this.resize()).observe(frame);
    this.resize();
  }

  /** Draws a frame at the next animation frame (several requests make one frame). */
  requestRender(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.renderer.render(this.scene, this.camera);
    });
  }

  /** Draws a frame now. */
  renderNow(): void {
    this.renderer.render(this.scene, this.camera);
  }

  add(object: Object3D): void {
    this.scene.add(object);
    this.requestRender();
  }

  remove(object: Object3D): void {
    this.scene.remove(object);
    this.requestRender();
  }

  /**
   * Looks at the whole cargo space `box` from above the door's left corner (seen from the
   * door: the left wall on the left), far enough to see all of it; places the lights with it.
   */
  look(box: CargoBox): void {
    const centre = new Vector3(box.length / 2, box.height / 2, box.width / 2);
    const radius = Math.hypot(box.length, box.width, box.height) / 2;
    const direction = new Vector3(1.0, 0.8, 0.75).normalize();
    const corners = [0, 1].flatMap((i) => [0, 1].flatMap((j) => [0, 1].map((k) => new Vector3(i * box.length, j * box.height, k * box.width))));
    // From outside the bounding sphere, move the target so the box's picture is centred and the
    // distance so it fills ~90 % of the view; a few rounds settle the perspective.
    const target = centre.clone();
    let distance = radius * 3;
    const right = new Vector3(), up = new Vector3();
    for (let round = 0; round < 5; round++) {
      this.camera.position.copy(target).addScaledVector(direction, distance);
      this.camera.near = Math.max(1, distance / 500);
      this.camera.far = distance * 20;
      this.camera.lookAt(target);
      this.camera.updateProjectionMatrix();
      this.camera.updateMatrixWorld();
      const ndc = corners.map((c) => c.clone().project(this.camera));
      const minX = Math.min(...ndc.map((p) => p.x)), maxX = Math.max(...ndc.map((p) => p.x));
      const minY = Math.min(...ndc.map((p) => p.y)), maxY = Math.max(...ndc.map((p) => p.y));
      const halfHeight = distance * Math.tan((this.camera.fov * Math.PI) / 360);
      right.setFromMatrixColumn(this.camera.matrixWorld, 0);
      up.setFromMatrixColumn(this.camera.matrixWorld, 1);
      target.addScaledVector(right, ((minX + maxX) / 2) * halfHeight * this.camera.aspect).addScaledVector(up, ((minY + maxY) / 2) * halfHeight);
      const extent = Math.max((maxX - minX) / 2, (maxY - minY) / 2);
      distance *= Math.max(0.3, Math.min(3, extent / 0.9));
    }
    this.camera.position.copy(target).addScaledVector(direction, distance);
    this.controls.target.copy(target);
    this.controls.maxDistance = distance * 6;
    this.controls.minDistance = Math.max(20, radius * 0.05);
    this.controls.update();
    this.key.position.set(centre.x + radius * 0.6, centre.y + radius * 3, centre.z + radius * 1.4);
    this.key.target.position.copy(centre);
    this.fill.position.set(centre.x - radius * 2, centre.y + radius, centre.z - radius * 2);
    this.fill.target.position.copy(centre);
    this.requestRender();
  }

  /**
   * Turns the camera once around the orbit target in `frames` animation frames, drawing each,
   * then puts it back; resolves with the mean time per frame, ms (render and frame pacing).
   */
  async orbitFrameMs(frames: number): Promise<number> {
    const start = this.camera.position.clone();
    const target = this.controls.target.clone();
    const offset = start.clone().sub(target);
    const began = performance.now();
    for (let i = 1; i <= frames; i++) {
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      this.camera.position.copy(target).add(offset.clone().applyAxisAngle(new Vector3(0, 1, 0), (2 * Math.PI * i) / frames));
      this.camera.lookAt(target);
      this.renderer.render(this.scene, this.camera);
    }
    // Make sure the GPU finished the last frame before the clock stops.
    this.renderer.getContext().finish();
    const ms = (performance.now() - began) / frames;
    this.camera.position.copy(start);
    this.controls.update();
    this.requestRender();
    return ms;
  }

  private resize(): void {
    const w = Math.max(1, this.frame.clientWidth);
    const h = Math.max(1, this.frame.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }
}
