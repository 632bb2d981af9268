/**
 * Text labels in the 3D scene (wall names, door, deck): a sprite with the text drawn on a canvas
 * texture, always facing the camera, `height` cm tall in the scene. The text is drawn isolated
 * (FSI…PDI, display/text.ts: bidi formatting characters removed), so a name from the request
 * cannot reorder the words around it.
 */
import { CanvasTexture, LinearFilter, Sprite, SpriteMaterial } from 'three';
import { isolatedText } from '../../display/text.js';

/** A sprite reading `text` in `colour` on a translucent white plate, `height` cm tall. */
export function textSprite(label: string, height: number, colour = '#1f2933'): Sprite {
  const text = isolatedText(label);
  const px = 48;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d')!;
  const font = `600 ${px}px system-ui, sans-serif`;
  ctx.font = font;
  const width = Math.ceil(ctx.measureText(text).width) + px;
  canvas.width = width;
  canvas.height = Math.ceil(px * 1.5);
  ctx.font = font;
  ctx.fillStyle = 'rgba(255,255,255,0.8)';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = colour;
  ctx.textBaseline = 'middle';
  ctx.fillText(text, px / 2, canvas.height / 2);
  const texture = new CanvasTexture(canvas);
  texture.minFilter = LinearFilter;
  const sprite = new Sprite(new SpriteMaterial({ map: texture, depthTest: false, transparent: true }));
  sprite.scale.set((height * canvas.width) / canvas.height, height, 1);
  sprite.renderOrder = 20;
  return sprite;
}
