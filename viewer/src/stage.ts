/**
 * The 3D stage: a WebGL renderer on the page's canvas, a perspective camera, orbit / pan / zoom
 * (three's OrbitControls on Pointer Events: drag or one-finger drag to orbit, right-drag,
 * shift-drag or two-finger drag to pan, wheel or two-finger pinch to zoom; the canvas has
 * `touch-action: none` so the browser leaves touches to it), a tap or click (`onTap`) and
 * lights. The canvas follows its frame's size (ResizeObserver). Frames are drawn on demand
 * (after a change), never in a busy loop, so an idle viewer costs nothing. Coordinates are the
 * plan's (cm): x front wall → door, y up, z right wall → left wall, which is a right-handed
 * frame like three's, drawn as it is.
 */
import {
  AmbientLight,
  Color,
  DirectionalLight,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
  type Object3D,
} from 'three';
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

/** Where the camera is: position and orbit target (cm, plan coordinates) and the distance between them. */
export interface CameraView {
  position: [number, number, number];
  target: [number, number, number];
  distance: number;
}

/** How far (CSS px) a pointer may move between down and up and still count as a tap or click: a finger wobbles more than a mouse. */
const TAP_SLOP = { mouse: 4, pen: 6, touch: 10 } as const;

export class Stage {
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(32, 1, 1, 100_000);
  readonly renderer: WebGLRenderer;
  readonly controls: OrbitControls;
  private pending = false;
  /** The box of the last `look` while the camera is still where it put it (no drag, pinch or wheel since): a resize frames it again. */
  private framed: CargoBox | null = null;
  /** True while the stage itself moves the camera (its own moves do not count as the user's). */
  private placing = false;
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
  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly frame: HTMLElement,
  ) {
    this.software = softwareWebGl();
    this.renderer = new WebGLRenderer({ canvas, antialias: !this.software, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(this.software ? 1 : Math.min(window.devicePixelRatio || 1, 2));
    this.scene.background = new Color('#eef1f4');
    this.scene.add(new AmbientLight(0xffffff, 1.1), this.key, this.fill, this.key.target, this.fill.target);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', () => {
      if (!this.placing) this.framed = null;
      this.requestRender();
    });
    new ResizeObserver(() => this.resize()).observe(frame);
    this.resize();
  }

  /**
   * Calls `handler` with the viewport point of a tap or click on the canvas: one pointer (mouse
   * button, pen or finger) down and up again nearby, no other pointer down meanwhile, so the end
   * of an orbit drag or of a two-finger pinch is not a tap.
   */
  onTap(handler: (clientX: number, clientY: number) => void): void {
    const down = new Map<number, { x: number; y: number }>();
    let gestureHadMore = false;
    this.canvas.addEventListener('pointerdown', (e) => {
      if (down.size === 0) gestureHadMore = false;
      down.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (down.size > 1) gestureHadMore = true;
    });
    const end = (e: PointerEvent, tapped: boolean): void => {
      const start = down.get(e.pointerId);
      down.delete(e.pointerId);
      if (!tapped || !start || gestureHadMore || down.size > 0) return;
      const slop = TAP_SLOP[e.pointerType as keyof typeof TAP_SLOP] ?? TAP_SLOP.mouse;
      if (Math.hypot(e.clientX - start.x, e.clientY - start.y) <= slop) handler(e.clientX, e.clientY);
    };
    // On the window: a second finger is not captured by the canvas and may lift outside it.
    window.addEventListener('pointerup', (e) => end(e, true));
    window.addEventListener('pointercancel', (e) => end(e, false));
  }

  /** The camera now (for tests and tools: a drag or pinch changes it). */
  view(): CameraView {
    const p = this.camera.position,
      t = this.controls.target;
    return { position: [p.x, p.y, p.z], target: [t.x, t.y, t.z], distance: p.distanceTo(t) };
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
   * Until the camera is moved by hand, a change of the view's size (a window resized, a phone
   * turned, the bar above growing) frames the box again.
   */
  look(box: CargoBox): void {
    const centre = new Vector3(box.length / 2, box.height / 2, box.width / 2);
    const radius = Math.hypot(box.length, box.width, box.height) / 2;
    const direction = new Vector3(1.0, 0.8, 0.75).normalize();
    const corners = [0, 1].flatMap((i) =>
      [0, 1].flatMap((j) => [0, 1].map((k) => new Vector3(i * box.length, j * box.height, k * box.width))),
    );
    // From outside the bounding sphere, move the target so the box's picture is centred and the
    // distance so it fills ~90 % of the view; a few rounds settle the perspective.
    const target = centre.clone();
    let distance = radius * 3;
    const right = new Vector3(),
      up = new Vector3();
    for (let round = 0; round < 5; round++) {
      this.camera.position.copy(target).addScaledVector(direction, distance);
      this.camera.near = Math.max(1, distance / 500);
      this.camera.far = distance * 20;
      this.camera.lookAt(target);
      this.camera.updateProjectionMatrix();
      this.camera.updateMatrixWorld();
      const ndc = corners.map((c) => c.clone().project(this.camera));
      const minX = Math.min(...ndc.map((p) => p.x)),
        maxX = Math.max(...ndc.map((p) => p.x));
      const minY = Math.min(...ndc.map((p) => p.y)),
        maxY = Math.max(...ndc.map((p) => p.y));
      const halfHeight = distance * Math.tan((this.camera.fov * Math.PI) / 360);
      right.setFromMatrixColumn(this.camera.matrixWorld, 0);
      up.setFromMatrixColumn(this.camera.matrixWorld, 1);
      target
        .addScaledVector(right, ((minX + maxX) / 2) * halfHeight * this.camera.aspect)
        .addScaledVector(up, ((minY + maxY) / 2) * halfHeight);
      const extent = Math.max((maxX - minX) / 2, (maxY - minY) / 2);
      distance *= Math.max(0.3, Math.min(3, extent / 0.9));
    }
    this.camera.position.copy(target).addScaledVector(direction, distance);
    this.controls.target.copy(target);
    this.controls.maxDistance = distance * 6;
    this.controls.minDistance = Math.max(20, radius * 0.05);
    this.placing = true;
    this.controls.update();
    this.placing = false;
    this.framed = box;
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
      this.camera.position
        .copy(target)
        .add(offset.clone().applyAxisAngle(new Vector3(0, 1, 0), (2 * Math.PI * i) / frames));
      this.camera.lookAt(target);
      this.renderer.render(this.scene, this.camera);
    }
    // Make sure the GPU finished the last frame before the clock stops.
    this.renderer.getContext().finish();
    const ms = (performance.now() - began) / frames;
    this.camera.position.copy(start);
    this.placing = true;
    this.controls.update();
    this.placing = false;
    this.requestRender();
    return ms;
  }

  private resize(): void {
    const w = Math.max(1, this.frame.clientWidth);
    const h = Math.max(1, this.frame.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    if (this.framed) this.look(this.framed);
    this.requestRender();
  }
}
