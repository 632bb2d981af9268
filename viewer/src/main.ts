import { Scene } from 'three';
import { weightDistribution } from '../../domain/pack/weight-distribution.js';
import { itemColour } from '../../solver/render/item-colour.js';
console.log(new Scene(), weightDistribution([], 100), itemColour('a'));
