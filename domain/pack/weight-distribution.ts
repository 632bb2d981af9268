/**
 * Weight distribution along a vehicle's length: kg per section of the cargo floor and the centre
 * of gravity against the middle of the cargo space. Shown for every organization on the
 * PDF's vehicle page and in the viewer; the axle loads stay an axle-access feature. Pure, with no
 * Node imports, so the browser viewer uses the same code as the PDF.
 */

/** What the distribution needs of one placed unit: position and size along x (cm), weight (kg). */
export interface LengthLoad {
  x: number;
  length: number;
  weight: number;
}

/** One section of the floor, [from, to) cm from the front wall, with the kg standing over it. */
export interface WeightSection {
  from: number;
  to: number;
  kg: number;
  /** kg per metre of length over this section. */
  kgPerMetre: number;
}

/** The weight distribution of one vehicle. */
export interface WeightDistribution {
  /** Sections of `sectionLength` cm from the front wall; the last one may be shorter. */
  sections: WeightSection[];
  totalKg: number;
  /** Centre of gravity along the length, cm from the front wall; null when nothing weighs. */
  cogX: number | null;
  /** `cogX` minus the middle of the length, cm (negative: towards the front wall); null as above. */
  cogOffset: number | null;
  /** Heaviest kg per metre over any section (0 when empty). */
  peakKgPerMetre: number;
}

/**
 * Spreads each unit's weight evenly over its length and sums it per section of `sectionLength`
 * cm (default 100 cm: kg per metre) of a cargo space `vehicleLength` cm long. Units reaching past
 * the length count up to it. Throws RangeError when a length is not positive.
 */
export function weightDistribution(
  units: readonly LengthLoad[],
  vehicleLength: number,
  sectionLength = 100,
): WeightDistribution {
  if (!(vehicleLength > 0) || !(sectionLength > 0)) throw new RangeError('lengths must be positive');
  const count = Math.ceil(vehicleLength / sectionLength - 1e-9);
  const sections: WeightSection[] = [];
  for (let i = 0; i < count; i++) {
    const from = i * sectionLength;
    sections.push({ from, to: Math.min(vehicleLength, from + sectionLength), kg: 0, kgPerMetre: 0 });
  }
  let totalKg = 0,
    moment = 0;
  for (const u of units) {
    if (!(u.weight > 0)) continue;
    totalKg += u.weight;
    moment += u.weight * (u.x + u.length / 2);
    if (!(u.length > 0)) {
      const s = sections[Math.min(count - 1, Math.max(0, Math.floor(u.x / sectionLength)))]!;
      s.kg += u.weight;
      continue;
    }
    const perCm = u.weight / u.length;
    const first = Math.max(0, Math.floor(u.x / sectionLength));
    const last = Math.min(count - 1, Math.floor((u.x + u.length) / sectionLength));
    for (let i = first; i <= last; i++) {
      const s = sections[i]!;
      const overlap = Math.min(s.to, u.x + u.length) - Math.max(s.from, u.x);
      if (overlap > 0) s.kg += perCm * overlap;
    }
  }
  let peak = 0;
  for (const s of sections) {
    s.kgPerMetre = s.kg / ((s.to - s.from) / 100);
    peak = Math.max(peak, s.kgPerMetre);
  }
  const cogX = totalKg > 0 ? moment / totalKg : null;
  return { sections, totalKg, cogX, cogOffset: cogX === null ? null : cogX - vehicleLength / 2, peakKgPerMetre: peak };
}
