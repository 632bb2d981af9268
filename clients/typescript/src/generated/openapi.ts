/**
 * Types of the Packing service API 0.1.0, generated from its OpenAPI document by
 * clients/typescript/scripts/generate-types.ts. Do not edit: run `npm run generate` in clients/typescript.
 * Lengths are cm, weights kg, amounts credits (1 credit = 1 USD), times ms unless a field says otherwise.
 */
/* eslint-disable */

/** Every non-2xx answer. Branch on `error.code`, never on `message`. */
export type ErrorEnvelope = {
  error: {
    /** snake_case error code (spec Errors) */
    code: string;
    /** English explanation */
    message: string;
    /** Equals the X-Request-Id header (`req_…`) */
    request_id: string;
    /** Every problem; present on 400 and 422 */
    details?: ErrorDetail[];
  };
};

/** One problem of a 400/422 answer. */
export type ErrorDetail = {
  /** JSON path of the field, such as `items[3].length`; "" for the whole body; a query parameter name for query problems */
  path: string;
  /** Detail code (spec Errors, second table); a refused plan revision (our extension) has `invalid_operation` or the rule of the verifier the edited plan breaks */
  code: "required" | "invalid_value" | "out_of_range" | "duplicate_id" | "unknown_vehicle" | "unknown_template" | "type_not_allowed" | "unknown_group" | "does_not_fit" | "too_many_items" | "too_many_vehicles" | "unknown_field" | "invalid_json" | "invalid_operation" | "vehicles" | "bounds" | "overlap" | "support" | "orientation" | "weight" | "stacking" | "stack_items" | "stack_weight" | "floor_load" | "stack_density" | "blocked_area" | "instances" | "steps" | "figures" | "axle_load" | "cog_range" | "group_routing" | "hazardous" | "aux_deck" | "pinned" | "pallets_on_cartons" | "heavy_on_light" | "max_slenderness";
  /** English explanation */
  message: string;
};

/** A non-blocking remark about a request or plan (e.g. `limited_by_balance`, `project_not_saved`). */
export type Warning = {
  /** snake_case warning code */
  code: string;
  /** English explanation */
  message: string;
  /** JSON path of the field it concerns, when one */
  path?: string;
};

/** An asynchronous packing job. */
export type Job = {
  /** `job_…` */
  id: string;
  /** Always `job` */
  object: "job";
  /** Final: succeeded, failed, canceled */
  status: "queued" | "running" | "succeeded" | "failed" | "canceled";
  /** Caller's reference from the request, or null */
  reference: string | null;
  /** Where the job was created */
  source: "api" | "playground";
  /** `prj_…`; only on jobs created by POST /v1/projects/{id}/pack */
  project_id?: string;
  /** Creation time */
  created_at: string;
  /** When computing started */
  started_at: string | null;
  /** When the job ended */
  finished_at: string | null;
  progress: JobProgress;
  summary: JobSummary;
  cost: JobCost;
  /** Why the job failed or was canceled; null otherwise */
  error: JobError | null;
  /** Non-blocking remarks, repeated in the result */
  warnings: Warning[];
  /** GET it for the full result when succeeded */
  result_url: string;
  /** Browser link rendering the plan as PDF; "" unless succeeded and within retention */
  pdf_url: string;
  /** Our extension (not in the spec): browser link of the interactive 3D viewer of the plan, signed like pdf_url; "" whenever pdf_url is "" */
  viewer_url: string;
  /** When request/result bodies and the PDF and viewer links are deleted */
  expires_at: string;
  result?: Result;
  /** Our extension, only with `?include=request`: the PackRequest the job was created with; null after retention */
  request?: PackRequest | null;
};

/** Live progress; informational, branch on Job.status. */
export type JobProgress = {
  /** `queued`, `running`, `finalizing`, `done`… */
  stage: string;
  /** Vehicles packed so far */
  vehicles_done: number;
  /** Units placed so far */
  placed_items: number;
};

/** Counts and timings of a job. */
export type JobSummary = {
  /** Item units requested */
  items_requested: number;
  /** Units placed */
  items_placed: number;
  /** Units not placed */
  items_unplaced: number;
  /** Loaded vehicles */
  vehicles_used: number;
  /** kg placed */
  total_weight: number;
  /** 0–1, average over used vehicles */
  volume_utilization: number;
  /** Time waiting for a compute slot (ms, not billed) */
  queue_ms: number;
  /** Compute time used (ms, billed) */
  compute_ms: number;
  /** Our extension (not in the spec): why the search ended. `bound_reached`: every unit placed in the fewest vehicles the volume and payload allow (nothing can be better); `stagnated`: with the automatic budget (`time_limit` 0) the search ended once no better plan had come for max(1 s, 30 % of the budget, 30 % of the time computed so far) and for 30 % of its block placements (18 % for each share while units are left unplaced), after its first complete beam round; `time_limit`: the budget ran out (an explicit `time_limit` is always used to its end unless the bound is reached); `work_limit`: the deterministic mode's `work_limit` ended it; `canceled`: canceled while computing. null before the job ended, when it never computed, and for jobs that ended before this field existed. */
  stop_reason: "bound_reached" | "stagnated" | "time_limit" | "work_limit" | "canceled" | null;
};

/** Charges and reservation of a job. */
export type JobCost = {
  /** Final charge; 0 until the job ends (credits; 1 credit = 1 USD) */
  credits: number;
  /** Worst-case hold, released when the job ends (credits; 1 credit = 1 USD) */
  reserved_credits: number;
  /** Rate card the job is priced with */
  rate_card_version: number;
  breakdown: CostBreakdown;
};

/** Why a job failed or was canceled. */
export type JobError = {
  /** Job error code */
  code: "canceled" | "time_limit_exceeded" | "engine_failed" | "queue_timeout" | "server_restarted";
  /** English explanation */
  message: string;
};

/** Price components of the final charge, credits. */
export type CostBreakdown = {
  /** Per-job fee (credits; 1 credit = 1 USD) */
  base: number;
  /** Per loaded vehicle (credits; 1 credit = 1 USD) */
  vehicles: number;
  /** Per compute-second, pro-rated per ms (credits; 1 credit = 1 USD) */
  compute: number;
  /** Per started 100 items above the large-load threshold (credits; 1 credit = 1 USD) */
  large_load: number;
};

/** The load plan of a succeeded job. */
export type Result = {
  /** The job (`job_…`) */
  job_id: string;
  /** Loaded vehicles in loading order; empty vehicles left out */
  vehicles: ResultVehicle[];
  /** Units that could not be placed */
  unplaced: UnplacedItem[];
  /** Remarks about the plan */
  warnings: Warning[];
  /** Browser link rendering the plan as PDF; "" after expires_at */
  pdf_url: string;
  /** Our extension (not in the spec): browser link of the interactive 3D viewer of the plan, signed like pdf_url; "" after expires_at */
  viewer_url: string;
  /** When the result and the PDF and viewer links are deleted */
  expires_at: string;
  /** Our extension (not in the spec): why the search ended (never `canceled` in a result). `bound_reached`: every unit placed in the fewest vehicles the volume and payload allow (nothing can be better); `stagnated`: with the automatic budget (`time_limit` 0) the search ended once no better plan had come for max(1 s, 30 % of the budget, 30 % of the time computed so far) and for 30 % of its block placements (18 % for each share while units are left unplaced), after its first complete beam round; `time_limit`: the budget ran out (an explicit `time_limit` is always used to its end unless the bound is reached); `work_limit`: the deterministic mode's `work_limit` ended it; `canceled`: canceled while computing. null before the job ended, when it never computed, and for jobs that ended before this field existed. */
  stop_reason: "bound_reached" | "stagnated" | "time_limit" | "work_limit" | "canceled" | null;
};

/** A loaded vehicle of the plan, in loading order. */
export type ResultVehicle = {
  /** 0-based position in the plan */
  index: number;
  /** Request definition id; slot id `pv_…` for project jobs */
  vehicle_id: string;
  /** 1-based copy of that definition */
  copy: number;
  /** Added by auto mode beyond the listed quantity */
  auto_added: boolean;
  /** Vehicle name */
  name: string;
  /** Vehicle type */
  type: "truck" | "trailer" | "flatbed" | "container" | "pallet" | "aircraft" | "ship";
  /** Inner length (cm) */
  length: number;
  /** Inner width (cm) */
  width: number;
  /** Inner height (cm) */
  height: number;
  /** Payload (kg) */
  max_weight: number;
  /** Units in this vehicle */
  items_placed: number;
  /** kg loaded */
  total_weight: number;
  /** 0–1 */
  volume_utilization: number;
  /** total_weight / max_weight; may exceed 1 with allow_overweight */
  weight_utilization: number;
  center_of_gravity: Point;
  /** Every unit in this vehicle */
  placements: Placement[];
  /** Only on vehicles with axle data, for organizations with axle access */
  axle_loads?: AxleLoad[];
};

/** One item unit in a vehicle; coordinates are its min corner, sizes as placed (cm). */
export type Placement = {
  /** Item definition id (`item_…` for project jobs) */
  item_id: string;
  /** 1-based unit number within the item definition, unique across the plan */
  instance: number;
  /** Item label */
  label: string;
  /** cm from the front wall */
  x: number;
  /** cm up from the floor */
  y: number;
  /** cm from the right wall */
  z: number;
  /** Size along x as placed (cm) */
  length: number;
  /** Size along z as placed (cm) */
  width: number;
  /** Size along y as placed (cm) */
  height: number;
  /** True when not placed as defined */
  rotated: boolean;
  /** Which defined sides lie along x, z, y */
  orientation: "lwh" | "wlh" | "lhw" | "hwl" | "whl" | "hlw";
  /** 1-based loading step within the vehicle */
  step: number;
  /** kg */
  weight: number;
};

/** A unit that could not be placed. */
export type UnplacedItem = {
  /** Item definition id */
  item_id: string;
  /** 1-based unit number */
  instance: number;
  /** Item label */
  label: string;
  /** `no_space`, `weight_limit`, `load_limit` (max_stack_weight, floor_load_capacity or max_stack_density_kg_m2), `axle_limit` (enforce_axle), `vehicle_limit`, `time_limit`, or (our extension, the safe stacking rules) `rule_pallets_on_cartons`, `rule_heavy_on_light`, `rule_max_slenderness` */
  reason: string;
};

/** A point in vehicle coordinates, cm: x from the front wall, y up from the floor, z from the right wall. */
export type Point = {
  /** cm along the length */
  x: number;
  /** cm up from the floor */
  y: number;
  /** cm across, from the right wall */
  z: number;
};

/** Load on one axle group (only with axle data and axle access). */
export type AxleLoad = {
  /** `Axle 1`, `Axle 2`… in the order of axle_positions */
  name: string;
  /** cm from the front of the cargo area */
  position: number;
  /** kg */
  load: number;
  /** kg, 0 = no maximum */
  max: number;
  /** load ≤ max; always true without a maximum */
  ok: boolean;
};

/** Answer of POST /v1/estimate: validation and price of a PackRequest, free. */
export type Estimate = {
  /** Would POST /v1/pack accept it (false also when credits do not cover the smallest run) */
  valid: boolean;
  /** Every problem; empty when valid */
  errors: ErrorDetail[];
  /** Remarks such as `limited_by_balance` or `insufficient_credits` */
  warnings: Warning[];
  /** Total item units */
  items: number;
  /** Most vehicles the job may use */
  max_vehicles: number;
  estimated_cost: CostRange;
  /** Compute budget the job would get (seconds, upper bound) */
  estimated_seconds: number;
  /** Available credits now. */
  balance: {
    /** Available (credits; 1 credit = 1 USD) */
    available_credits: number;
  };
};

/** Price range of a job, credits. */
export type CostRange = {
  /** Fewest vehicles and no compute (credits; 1 credit = 1 USD) */
  min_credits: number;
  /** Worst case: max_vehicles loaded and the whole compute budget; what POST /v1/pack reserves (credits; 1 credit = 1 USD) */
  max_credits: number;
};

/** The organization's credits. */
export type Balance = {
  /** Subscription + purchased − reserved (credits; 1 credit = 1 USD) */
  available_credits: number;
  /** Usable subscription credits, spent first (credits; 1 credit = 1 USD) */
  subscription_credits: number;
  /** When the subscription credits expire */
  subscription_expires_at: string | null;
  /** Purchased credits, never expire (credits; 1 credit = 1 USD) */
  purchased_credits: number;
  /** Held for running and queued jobs (credits; 1 credit = 1 USD) */
  reserved_credits: number;
};

/** The organization's effective limits (GET /v1/limits). */
export type Limits = {
  /** Item units per job */
  max_items_per_request: number;
  /** Vehicles per job, auto-added included */
  max_vehicles_per_request: number;
  /** Compute budget per job (seconds) */
  max_time_limit_seconds: number;
  /** Jobs computing at once */
  concurrency: number;
  /** Jobs queued + running */
  max_queued_jobs: number;
  /** Days bodies, results and PDF links are kept */
  retention_days: number;
  /** Vehicle types accepted in requests */
  allowed_vehicle_types: string[];
  /** Plan cap on saved projects */
  max_projects: number;
  /** Plan cap on saved cargo items (templates) */
  max_saved_items: number;
  rate_limits: RateLimits;
  rate_card: RateCard;
};

/** Request limits; the strictest window of key and organization applies. */
export type RateLimits = {
  per_key: RateLimitWindows;
  per_organization: RateLimitWindows;
};

/** Requests allowed per window. */
export type RateLimitWindows = {
  /** Requests per minute */
  per_minute: number;
  /** Requests per hour */
  per_hour: number;
  /** Requests per day */
  per_day: number;
};

/** Prices in credits. */
export type RateCard = {
  /** Rate card version (Job.cost.rate_card_version) */
  version: number;
  /** Per-job fee (credits; 1 credit = 1 USD) */
  base: number;
  /** Per loaded vehicle (credits; 1 credit = 1 USD) */
  per_vehicle: number;
  /** Per compute-second, pro-rated per ms (credits; 1 credit = 1 USD) */
  per_compute_second: number;
  /** Item units included before the large-load surcharge */
  large_load_threshold: number;
  /** Units per surcharge block above the threshold */
  large_load_block_items: number;
  /** Per started block (credits; 1 credit = 1 USD) */
  per_large_load_block: number;
};

/** Answer to DELETE of a vehicle, template, project or webhook endpoint (our extension). */
export type Deleted = {
  /** The deleted id */
  id: string;
  /** Kind of record */
  object: "vehicle" | "template" | "project" | "webhook_endpoint";
  /** Always true */
  deleted: true;
};

/** Body of POST /v1/pack and POST /v1/estimate: the vehicles available and the items to ship. Unknown fields are rejected. */
export type PackRequest = {
  /** Caller's own reference, echoed on the job */
  reference?: string;
  /** At least one */
  vehicles: Vehicle[];
  /** At least one */
  items: Item[];
  /** Required for every group an item names when options.group_routing is not none */
  groups?: Group[];
  options?: Options;
};

/** Floor rectangle with min-corner origin, cm. x from the front wall, z from the right wall (seen from the door looking in). Must lie on the vehicle floor. */
export type Rect = {
  /** Front wall to near edge (cm) */
  x: number;
  /** Right wall to near edge (cm) */
  z: number;
  /** Extent along x (cm) */
  length: number;
  /** Extent along z (cm) */
  width: number;
};

/** A vehicle available for the job. Either `vehicle_id` names a saved vehicle (preset or the organization's), whose fields the ones sent beside it override, or `type`, `length`, `width`, `height` and `max_weight` are given. Dimensions are inner cargo-space sizes in cm. */
export type Vehicle = {
  /** Unique within the request; defaults to vehicle_id; results call it vehicle_id */
  id?: string;
  /** Id of a saved vehicle (GET /v1/vehicles) */
  vehicle_id?: string;
  /** Vehicle type; must be in the organization's allowed_vehicle_types */
  type?: "truck" | "trailer" | "flatbed" | "container" | "pallet" | "aircraft" | "ship";
  /** Defaults to the saved name or the id */
  name?: string;
  /** Inner length along x, front wall toward the door (cm) */
  length?: number;
  /** Inner width along z (cm) */
  width?: number;
  /** Inner height along y (cm) */
  height?: number;
  /** Payload (kg) */
  max_weight?: number;
  /** Identical vehicles available; default 1 */
  quantity?: number;
  /** Floor load capacity per m² (kg/m²), 0 = no limit (kg) */
  floor_load_capacity?: number;
  /** Double-decker; default false */
  aux_deck?: boolean;
  /** Height of the auxiliary deck; required when aux_deck is true (cm) */
  aux_deck_height?: number;
  /** Payload of the auxiliary deck; required when aux_deck is true (kg) */
  aux_deck_max_weight?: number;
  /** Floor zones nothing may stand on; each must lie on the floor */
  blocked_areas?: Rect[];
  /** cm from the front of the cargo area, negative = ahead of it; each between -300 and the vehicle length; same length as axle_max_loads */
  axle_positions?: number[];
  /** kg per axle, each > 0 and ≤ 100000 */
  axle_max_loads?: number[];
  /** Allowed centre-of-gravity deviation along x, 0 to length/2 (cm) */
  cog_range_x?: number;
  /** Allowed centre-of-gravity deviation across, 0 to width/2 (cm) */
  cog_range_y?: number;
  /** Tractor weight, semi-trailer axle model (kg) */
  tractor_weight?: number;
  /** Empty trailer weight (kg) */
  empty_trailer_weight?: number;
  /** Front axle to middle axle (cm) */
  front_axle_to_middle_axle?: number;
  /** Front axle to tractor centre of gravity (cm) */
  front_axle_to_tractor_cog?: number;
  /** Front axle to kingpin (cm) */
  front_axle_to_kingpin?: number;
  /** Kingpin to rear axle (cm) */
  kingpin_to_rear_axle?: number;
  /** Trailer centre of gravity to rear axle (cm) */
  trailer_cog_to_rear_axle?: number;
  /** Trailer start to kingpin (cm) */
  trailer_start_to_kingpin?: number;
  /** Maximum middle axle load (kg) */
  max_middle_axle_weight?: number;
  /** Maximum rear axle load (kg) */
  max_rear_axle_weight?: number;
  /** Our extension: units already loaded in copies of this vehicle (pinned units), kept where they are; the rest is packed around them */
  loaded?: LoadedUnit[];
};

/** Our extension (not in the spec): one unit already loaded in a copy of this vehicle, a pinned unit. The plan keeps it exactly where it is (its position and orientation), counts it as one unit of its item's quantity (pinned units take the instances 1..k of their item, in request order) and packs the rest around it: it takes room, weight and axle load, and other units may stand on it as on any placed unit. Its vehicle copy is always in the plan, and its loading steps come first. A re-plan from a loading step sends the units loaded so far this way. */
export type LoadedUnit = {
  /** Id of an item of this request; the unit is one of its quantity */
  item_id: string;
  /** Min corner along the length, from the front wall, as Placement.x (cm) */
  x: number;
  /** Min corner above the floor, as Placement.y (cm) */
  y: number;
  /** Min corner across the width, as Placement.z (cm) */
  z: number;
  /** As Placement.orientation; must be one the item's rotation allows */
  orientation: "lwh" | "wlh" | "lhw" | "hwl" | "whl" | "hlw";
  /** Which copy of this vehicle definition holds the unit, 1-based, at most quantity; default 1 */
  copy?: number;
};

/** One SKU / package type with `quantity` identical units. Sizes are outer package sizes in cm, `weight` is one unit in kg. `template_id` supplies every field; fields sent beside it override. Without a template `height` and `weight` are required, `length` and `width` unless the shape is cylinder or drum, which need `radius`. */
export type Item = {
  /** Unique within the request; defaults to template_id; results call it item_id */
  id?: string;
  /** Id of a saved cargo template (tpl_…) */
  template_id?: string;
  /** Defaults to the id */
  label?: string;
  /** Default box; cylinder and drum use radius + height; pallet and drum always stay upright */
  shape?: "box" | "cylinder" | "pallet" | "bag" | "drum";
  /** Length along x as defined (cm) */
  length?: number;
  /** Width along z as defined (cm) */
  width?: number;
  /** Vertical side as defined (cm) */
  height?: number;
  /** Radius of a cylinder or drum (cm) */
  radius?: number;
  /** One unit (kg) */
  weight?: number;
  /** Identical units; default 1 */
  quantity?: number;
  /** Default true; false keeps everything off the top */
  stackable?: boolean;
  /** Weight resting on one unit, 0 = unlimited (kg) */
  max_stack_weight?: number;
  /** all (default, six orientations), upright (about the vertical axis only), fixed */
  rotation?: "all" | "upright" | "fixed";
  /** Default false; kept low and apart from other hazardous items */
  hazardous?: boolean;
  /** Default 0; higher = loaded first and kept when space runs out */
  priority?: number;
  /** Name of a group */
  group?: string;
  /** #rrggbb, viewer and PDF only */
  color?: string;
  /** Telescoping overlap of stacked identical units, default 0; less than height (cm) */
  nesting_height?: number;
};

/** A loading group named by Item.group. Order 1 is loaded deepest (front wall), the highest last (door). */
export type Group = {
  /** Referenced by Item.group */
  name: string;
  /** Lower = loaded first; defaults to the 1-based list position */
  order?: number;
  /** #rrggbb */
  color?: string;
};

/** Job options; every field optional. */
export type Options = {
  /** auto (default): copies of the most suitable vehicle are added up to the vehicle limit; fleet_only: listed vehicles only */
  packing_mode?: "auto" | "fleet_only";
  /** none (default): groups are informational; wall, routing, no_stack: groups constrain the loading */
  group_routing?: "none" | "wall" | "routing" | "no_stack";
  /** Ignore payload limits; default false */
  allow_overweight?: boolean;
  /** Max items in a stack, 0 = unlimited */
  max_stack_items?: number;
  /** Stack density per m² (kg/m²), 0 = unlimited (kg) */
  max_stack_density_kg_m2?: number;
  /** Our extension (safe stacks): true lets pallet-shaped units (shape pallet) rest on units of other shapes; default false: a pallet stands on the floor, on the second deck or on other pallets */
  pallets_on_cartons?: boolean;
  /** Our extension (safe stacks): a unit weighs at most this many times the units it rests on, together; default 2; 0 = no limit; otherwise at least 1 (identical units must stack) */
  heavy_on_light?: number;
  /** Our extension (safe stacks): after every loading step, a stack of two or more units that nothing holds up sideways (no wall, no unit loaded before it) is at most this many times as tall as its base is long along that side; default 3; 0 = no limit; otherwise at least 1 */
  max_slenderness?: number;
  /** Keep the first orientation that fits the vehicle height; default false */
  lock_rotations?: boolean;
  /** Treat identical vehicles as one pool; default false */
  group_identical_bins?: boolean;
  /** Seconds of compute at most; 0 (default) = automatic; capped at max_time_limit_seconds */
  time_limit?: number;
  /** Reject placements that overload an axle group (needs axle access) */
  enforce_axle?: boolean;
  /** Our extension. Seed of the search; default: a new random seed per job. With work_limit, the same request and seed give the same plan */
  seed?: number;
  /** Our extension: deterministic mode. The search stops after this many block placements per search thread (trial placements included) instead of at the time limit, so the same request, seed and service thread count give the same plan on any machine; the time limit still ends the search if it comes first (then the plan may differ). About 20,000–100,000 placements per second per thread */
  work_limit?: number;
};

/** A plan to verify: the request it was made for and the plan (a Result, typically edited). */
export type PlanVerifyRequest = {
  request: PackRequest;
  /** A Result as GET /v1/jobs/{id}/result answers it, edited or not. Only the fields listed here are read; every other field (figures, steps, labels, sizes, links…) may be sent and is ignored: the plan is rebuilt from the units and the request. */
  result: {
    /** Vehicles in loading order */
    vehicles: {
      /** Request vehicle definition id */
      vehicle_id: string;
      /** 1-based copy of that definition */
      copy: number;
      /** Ignored (vehicles are indexed in the order listed) */
      index?: number;
      /** The units in this vehicle */
      placements: {
        /** Item definition id of the unit */
        item_id: string;
        /** 1-based unit number within the item definition */
        instance: number;
        /** Min corner, from the front wall (cm) */
        x: number;
        /** Min corner, up from the floor (cm) */
        y: number;
        /** Min corner, from the right wall (cm) */
        z: number;
        /** Which defined sides lie along x, z, y */
        orientation: "lwh" | "wlh" | "lhw" | "hwl" | "whl" | "hlw";
      }[];
    }[];
    /** Units left out, with the reason to report; every unit not placed is unplaced whether listed or not */
    unplaced?: {
      /** Item definition id of the unit */
      item_id: string;
      /** 1-based unit number within the item definition */
      instance: number;
      /** Reason reported for the unit */
      reason?: "no_space" | "weight_limit" | "load_limit" | "axle_limit" | "vehicle_limit" | "time_limit" | "rule_pallets_on_cartons" | "rule_heavy_on_light" | "rule_max_slenderness";
    }[];
  };
};

/** The verdict on a plan. */
export type PlanVerification = {
  /** True when no rule is broken */
  valid: boolean;
  /** Every broken rule; empty when valid */
  problems: PlanProblem[];
  /** The plan rebuilt from the units sent (sizes, labels, weights, loading steps, figures and axle loads recomputed; cm, kg), in the shape of GET /v1/jobs/{id}/result. There is no job: `job_id`, `pdf_url` and `viewer_url` are "", `expires_at` is the time of the answer (nothing is stored), `stop_reason` is null and `warnings` are the request's. */
  result: Result;
};

/** One broken rule of a verified plan. */
export type PlanProblem = {
  /** The rule: `vehicles`, `bounds`, `overlap`, `support`, `orientation`, `weight`, `stacking`, `stack_items`, `stack_weight`, `floor_load`, `stack_density`, `blocked_area`, `instances`, `steps`, `figures`, `axle_load`, `cog_range`, `group_routing`, `hazardous`, `aux_deck`, `pinned` */
  rule: string;
  /** English explanation with the figures (cm, kg) */
  message: string;
  /** The units the problem concerns (both units of an overlap); empty for a vehicle-wide problem */
  units: {
    /** Item definition id */
    item_id: string;
    /** 1-based unit number */
    instance: number;
  }[];
};

/** A page of jobs, newest first (by created_at, then id). Jobs are listed without `result`. */
export type JobList = {
  /** The jobs of this page */
  data: Job[];
  /** Pass as `?cursor=` for the next page; empty on the last page */
  next_cursor: string;
};

/** Our extension (not in the spec). One unit of a plan: its item and instance. */
export type PlanUnit = {
  /** Result item_id */
  item_id: string;
  /** Unit of the item, 1-based (Result instance) */
  instance: number;
};

/** `move` a placed unit, or `place` an unplaced one, into a vehicle of the base revision's Result (`vehicle`: its index there, 0-based) at a position (min corner, cm) and orientation the item allows. */
export type MoveOperation = {
  op: "move" | "place";
  /** Result item_id */
  item_id: string;
  /** Unit of the item, 1-based (Result instance) */
  instance: number;
  /** Index of the vehicle in the base revision's Result `vehicles` */
  vehicle: number;
  /** Position along the length (x) of the unit's min corner in the vehicle, cm */
  x: number;
  /** Height above the floor (y, vertical) of the unit's min corner in the vehicle, cm */
  y: number;
  /** Position across the width (z) of the unit's min corner in the vehicle, cm */
  z: number;
  /** As Placement.orientation: `lwh` as defined, `wlh` turned about the vertical axis, the others tipped */
  orientation: "lwh" | "wlh" | "lhw" | "hwl" | "whl" | "hlw";
};

/** `remove` a placed unit: it becomes unplaced. */
export type RemoveOperation = {
  op: "remove";
  /** Result item_id */
  item_id: string;
  /** Unit of the item, 1-based (Result instance) */
  instance: number;
};

/** `swap` two units: each takes the other's vehicle and position and keeps its orientation; with an unplaced one, the placed one becomes unplaced and the other takes its place (turned like it when its item allows, else its first allowed orientation). */
export type SwapOperation = {
  op: "swap";
  a: PlanUnit;
  b: PlanUnit;
};

/** Our extension (not in the spec). One edit of a plan revision, applied in order to the base revision. */
export type EditOperation = MoveOperation | RemoveOperation | SwapOperation;

/** Our extension (not in the spec). Edits of the latest revision of a job's plan. */
export type PlanRevisionInput = {
  /** The revision edited: the latest (0: the job's own plan); another answers 409 `conflict` */
  base_revision: number;
  /** The edits, applied in order (1–2000) */
  operations: EditOperation[];
};

/** Our extension (not in the spec). A saved revision of a job's plan. */
export type PlanRevision = {
  /** Revision number: 1, 2, … (0 is the job's own plan) */
  revision: number;
  /** RFC 3339 */
  created_at: string;
  /** Member whose API key or web app session saved it */
  created_by: {
    /** Member id (usr_…) */
    id: string;
    name: string;
  };
  /** The revision it was edited from */
  base_revision: number;
  /** How many operations made it */
  operations_count: number;
};

/** Our extension (not in the spec). A revision just saved, with its Result (the edited plan, verified; its own `pdf_url` and `viewer_url`). */
export type PlanRevisionCreated = {
  /** Revision number: 1, 2, … (0 is the job's own plan) */
  revision: number;
  /** RFC 3339 */
  created_at: string;
  /** Member whose API key or web app session saved it */
  created_by: {
    /** Member id (usr_…) */
    id: string;
    name: string;
  };
  /** The revision it was edited from */
  base_revision: number;
  /** How many operations made it */
  operations_count: number;
  result: Result;
};

/** Our extension (not in the spec). A page of a job's revisions, newest first. */
export type PlanRevisionList = {
  data: PlanRevision[];
  /** Pass as `cursor` for the next page; "" on the last page */
  next_cursor: string;
};

/** Usage of the organization over `from`–`to` (UTC dates, inclusive). A job counts on the day it was created; credits are what settlements charged. */
export type Usage = {
  /** First day (YYYY-MM-DD, UTC) */
  from: string;
  /** Last day, inclusive */
  to: string;
  totals: UsageFigures;
  /** With `group_by=day`: every date of the range in order, zeros included; otherwise empty */
  days: UsageDay[];
};

/** Usage of the jobs created in a period (UTC days). */
export type UsageFigures = {
  /** Jobs created */
  jobs: number;
  /** Those jobs by their current status */
  by_status: {
    /** Succeeded */
    succeeded: number;
    /** Failed */
    failed: number;
    /** Canceled */
    canceled: number;
    /** Still queued */
    queued: number;
    /** Still running */
    running: number;
  };
  /** Charged by their settlements (credits) */
  credits: number;
  /** The charge by price component */
  by_component: {
    /** Per-job fees (credits) */
    base: number;
    /** Per loaded vehicle (credits) */
    vehicles: number;
    /** Compute (credits) */
    compute: number;
    /** Large-load surcharges (credits) */
    large_load: number;
  };
  /** Compute time billed, ms (capped at each job budget; 0 for outcomes not charged) */
  compute_ms: number;
  /** Item units placed by succeeded jobs */
  items_placed: number;
  /** Vehicles loaded by succeeded jobs */
  vehicles_used: number;
};

/** Usage of the jobs created on one UTC day. */
export type UsageDay = {
  /** YYYY-MM-DD (UTC) */
  date: string;
} & UsageFigures;

/** A preset (slug id, read-only) or one of the organization's vehicles (veh_…). Optional fields appear only when set. */
export type SavedVehicle = {
  /** veh_… or a preset slug */
  id: string;
  object: "vehicle";
  /** true for the read-only presets of the service */
  preset: boolean;
  /** Shown in lists and results; 1–255 characters */
  name: string;
  /** Vehicle type; must be in the organization's allowed_vehicle_types */
  type: "truck" | "trailer" | "flatbed" | "container" | "pallet" | "aircraft" | "ship";
  /** Inner length along x, front wall toward the door (cm) */
  length: number;
  /** Inner width along z (cm) */
  width: number;
  /** Inner height along y (cm) */
  height: number;
  /** Payload (kg) */
  max_weight: number;
  /** Floor load capacity per m² (kg/m²), 0 = no limit (kg) */
  floor_load_capacity?: number;
  /** Double-decker; default false */
  aux_deck?: boolean;
  /** Height of the auxiliary deck; required when aux_deck is true (cm) */
  aux_deck_height?: number;
  /** Payload of the auxiliary deck; required when aux_deck is true (kg) */
  aux_deck_max_weight?: number;
  /** cm from the front of the cargo area, negative = ahead of it; each between -300 and the vehicle length; same length as axle_max_loads */
  axle_positions?: number[];
  /** kg per axle, each > 0 and ≤ 100000 */
  axle_max_loads?: number[];
  /** Allowed centre-of-gravity deviation along x, 0 to length/2 (cm) */
  cog_range_x?: number;
  /** Allowed centre-of-gravity deviation across, 0 to width/2 (cm) */
  cog_range_y?: number;
  /** Tractor weight, semi-trailer axle model (kg) */
  tractor_weight?: number;
  /** Empty trailer weight (kg) */
  empty_trailer_weight?: number;
  /** Front axle to middle axle (cm) */
  front_axle_to_middle_axle?: number;
  /** Front axle to tractor centre of gravity (cm) */
  front_axle_to_tractor_cog?: number;
  /** Front axle to kingpin (cm) */
  front_axle_to_kingpin?: number;
  /** Kingpin to rear axle (cm) */
  kingpin_to_rear_axle?: number;
  /** Trailer centre of gravity to rear axle (cm) */
  trailer_cog_to_rear_axle?: number;
  /** Trailer start to kingpin (cm) */
  trailer_start_to_kingpin?: number;
  /** Maximum middle axle load (kg) */
  max_middle_axle_weight?: number;
  /** Maximum rear axle load (kg) */
  max_rear_axle_weight?: number;
  /** Floor zones nothing may stand on; each must lie on the floor */
  blocked_areas?: {
    /** Front wall to near edge (cm) */
    x: number;
    /** Right wall to near edge (cm) */
    z: number;
    /** Extent along x (cm) */
    length: number;
    /** Extent along z (cm) */
    width: number;
  }[];
  /** RFC 3339; null for presets */
  created_at: string | null;
  /** RFC 3339; null for presets */
  updated_at: string | null;
  /** Member whose API key created it; null for presets */
  created_by: {
    /** Member id (usr_…) */
    id: string;
    name: string;
  } | null;
  /** Member whose API key changed it last; null for presets */
  updated_by: {
    /** Member id (usr_…) */
    id: string;
    name: string;
  } | null;
};

/** A vehicle to save: the spec's Vehicle fields except id, vehicle_id and quantity. Dimensions are inner cargo-space sizes in cm, max_weight the payload in kg; type must be in the organization's allowed_vehicle_types. */
export type VehicleInput = {
  /** Shown in lists and results; 1–255 characters */
  name: string;
  /** Vehicle type; must be in the organization's allowed_vehicle_types */
  type: "truck" | "trailer" | "flatbed" | "container" | "pallet" | "aircraft" | "ship";
  /** Inner length along x, front wall toward the door (cm) */
  length: number;
  /** Inner width along z (cm) */
  width: number;
  /** Inner height along y (cm) */
  height: number;
  /** Payload (kg) */
  max_weight: number;
  /** Floor load capacity per m² (kg/m²), 0 = no limit (kg) */
  floor_load_capacity?: number;
  /** Double-decker; default false */
  aux_deck?: boolean;
  /** Height of the auxiliary deck; required when aux_deck is true (cm) */
  aux_deck_height?: number;
  /** Payload of the auxiliary deck; required when aux_deck is true (kg) */
  aux_deck_max_weight?: number;
  /** cm from the front of the cargo area, negative = ahead of it; each between -300 and the vehicle length; same length as axle_max_loads */
  axle_positions?: number[];
  /** kg per axle, each > 0 and ≤ 100000 */
  axle_max_loads?: number[];
  /** Allowed centre-of-gravity deviation along x, 0 to length/2 (cm) */
  cog_range_x?: number;
  /** Allowed centre-of-gravity deviation across, 0 to width/2 (cm) */
  cog_range_y?: number;
  /** Tractor weight, semi-trailer axle model (kg) */
  tractor_weight?: number;
  /** Empty trailer weight (kg) */
  empty_trailer_weight?: number;
  /** Front axle to middle axle (cm) */
  front_axle_to_middle_axle?: number;
  /** Front axle to tractor centre of gravity (cm) */
  front_axle_to_tractor_cog?: number;
  /** Front axle to kingpin (cm) */
  front_axle_to_kingpin?: number;
  /** Kingpin to rear axle (cm) */
  kingpin_to_rear_axle?: number;
  /** Trailer centre of gravity to rear axle (cm) */
  trailer_cog_to_rear_axle?: number;
  /** Trailer start to kingpin (cm) */
  trailer_start_to_kingpin?: number;
  /** Maximum middle axle load (kg) */
  max_middle_axle_weight?: number;
  /** Maximum rear axle load (kg) */
  max_rear_axle_weight?: number;
  /** Floor zones nothing may stand on; each must lie on the floor */
  blocked_areas?: {
    /** Front wall to near edge (cm) */
    x: number;
    /** Right wall to near edge (cm) */
    z: number;
    /** Extent along x (cm) */
    length: number;
    /** Extent along z (cm) */
    width: number;
  }[];
};

/** Any subset of the VehicleInput fields; null is not accepted. The record after the change must be a valid VehicleInput. */
export type VehiclePatch = {
  /** Shown in lists and results; 1–255 characters */
  name?: string;
  /** Vehicle type; must be in the organization's allowed_vehicle_types */
  type?: "truck" | "trailer" | "flatbed" | "container" | "pallet" | "aircraft" | "ship";
  /** Inner length along x, front wall toward the door (cm) */
  length?: number;
  /** Inner width along z (cm) */
  width?: number;
  /** Inner height along y (cm) */
  height?: number;
  /** Payload (kg) */
  max_weight?: number;
  /** Floor load capacity per m² (kg/m²), 0 = no limit (kg) */
  floor_load_capacity?: number;
  /** Double-decker; default false */
  aux_deck?: boolean;
  /** Height of the auxiliary deck; required when aux_deck is true (cm) */
  aux_deck_height?: number;
  /** Payload of the auxiliary deck; required when aux_deck is true (kg) */
  aux_deck_max_weight?: number;
  /** cm from the front of the cargo area, negative = ahead of it; each between -300 and the vehicle length; same length as axle_max_loads */
  axle_positions?: number[];
  /** kg per axle, each > 0 and ≤ 100000 */
  axle_max_loads?: number[];
  /** Allowed centre-of-gravity deviation along x, 0 to length/2 (cm) */
  cog_range_x?: number;
  /** Allowed centre-of-gravity deviation across, 0 to width/2 (cm) */
  cog_range_y?: number;
  /** Tractor weight, semi-trailer axle model (kg) */
  tractor_weight?: number;
  /** Empty trailer weight (kg) */
  empty_trailer_weight?: number;
  /** Front axle to middle axle (cm) */
  front_axle_to_middle_axle?: number;
  /** Front axle to tractor centre of gravity (cm) */
  front_axle_to_tractor_cog?: number;
  /** Front axle to kingpin (cm) */
  front_axle_to_kingpin?: number;
  /** Kingpin to rear axle (cm) */
  kingpin_to_rear_axle?: number;
  /** Trailer centre of gravity to rear axle (cm) */
  trailer_cog_to_rear_axle?: number;
  /** Trailer start to kingpin (cm) */
  trailer_start_to_kingpin?: number;
  /** Maximum middle axle load (kg) */
  max_middle_axle_weight?: number;
  /** Maximum rear axle load (kg) */
  max_rear_axle_weight?: number;
  /** Floor zones nothing may stand on; each must lie on the floor */
  blocked_areas?: {
    /** Front wall to near edge (cm) */
    x: number;
    /** Right wall to near edge (cm) */
    z: number;
    /** Extent along x (cm) */
    length: number;
    /** Extent along z (cm) */
    width: number;
  }[];
};

/** VehicleList */
export type VehicleList = {
  data: SavedVehicle[];
  /** Pass as `cursor` for the next page; "" on the last page */
  next_cursor: string;
};

/** One of the organization's cargo templates. Optional fields appear only when set. */
export type Template = {
  /** tpl_… */
  id: string;
  object: "template";
  /** Shown in lists, results and the PDF; 1–255 characters */
  label: string;
  /** Default box; cylinder and drum use radius + height; pallet and drum always stay upright */
  shape?: "box" | "cylinder" | "pallet" | "bag" | "drum";
  /** Length along x as defined (cm) */
  length?: number;
  /** Width along z as defined (cm) */
  width?: number;
  /** Vertical side as defined (cm) */
  height: number;
  /** Radius of a cylinder or drum (cm) */
  radius?: number;
  /** One unit (kg) */
  weight: number;
  /** Default true; false keeps everything off the top */
  stackable?: boolean;
  /** Weight resting on one unit, 0 = unlimited (kg) */
  max_stack_weight?: number;
  /** all (default, six orientations), upright (about the vertical axis only), fixed */
  rotation?: "all" | "upright" | "fixed";
  /** Default false; kept low and apart from other hazardous items */
  hazardous?: boolean;
  /** Default 0; higher = loaded first and kept when space runs out */
  priority?: number;
  /** Name of a group */
  group?: string;
  /** #rrggbb, viewer and PDF only */
  color?: string;
  /** Telescoping overlap of stacked identical units, default 0; less than height (cm) */
  nesting_height?: number;
  /** Default quantity of items made from the template (1–10000); the item may override it */
  quantity?: number;
  /** RFC 3339; null for presets */
  created_at: string | null;
  /** RFC 3339; null for presets */
  updated_at: string | null;
  /** Member whose API key created it; null for presets */
  created_by: {
    /** Member id (usr_…) */
    id: string;
    name: string;
  } | null;
  /** Member whose API key changed it last; null for presets */
  updated_by: {
    /** Member id (usr_…) */
    id: string;
    name: string;
  } | null;
};

/** A cargo item to save, in the pack item shape without id and template_id. Sizes are outer package sizes in cm, weight is one unit in kg. length and width are required unless the shape is cylinder or drum, which need radius. */
export type TemplateInput = {
  /** Shown in lists, results and the PDF; 1–255 characters */
  label: string;
  /** Default box; cylinder and drum use radius + height; pallet and drum always stay upright */
  shape?: "box" | "cylinder" | "pallet" | "bag" | "drum";
  /** Length along x as defined (cm) */
  length?: number;
  /** Width along z as defined (cm) */
  width?: number;
  /** Vertical side as defined (cm) */
  height: number;
  /** Radius of a cylinder or drum (cm) */
  radius?: number;
  /** One unit (kg) */
  weight: number;
  /** Default true; false keeps everything off the top */
  stackable?: boolean;
  /** Weight resting on one unit, 0 = unlimited (kg) */
  max_stack_weight?: number;
  /** all (default, six orientations), upright (about the vertical axis only), fixed */
  rotation?: "all" | "upright" | "fixed";
  /** Default false; kept low and apart from other hazardous items */
  hazardous?: boolean;
  /** Default 0; higher = loaded first and kept when space runs out */
  priority?: number;
  /** Name of a group */
  group?: string;
  /** #rrggbb, viewer and PDF only */
  color?: string;
  /** Telescoping overlap of stacked identical units, default 0; less than height (cm) */
  nesting_height?: number;
  /** Default quantity of items made from the template (1–10000); the item may override it */
  quantity?: number;
};

/** Any subset of the TemplateInput fields; null is not accepted. The record after the change must be a valid TemplateInput. */
export type TemplatePatch = {
  /** Shown in lists, results and the PDF; 1–255 characters */
  label?: string;
  /** Default box; cylinder and drum use radius + height; pallet and drum always stay upright */
  shape?: "box" | "cylinder" | "pallet" | "bag" | "drum";
  /** Length along x as defined (cm) */
  length?: number;
  /** Width along z as defined (cm) */
  width?: number;
  /** Vertical side as defined (cm) */
  height?: number;
  /** Radius of a cylinder or drum (cm) */
  radius?: number;
  /** One unit (kg) */
  weight?: number;
  /** Default true; false keeps everything off the top */
  stackable?: boolean;
  /** Weight resting on one unit, 0 = unlimited (kg) */
  max_stack_weight?: number;
  /** all (default, six orientations), upright (about the vertical axis only), fixed */
  rotation?: "all" | "upright" | "fixed";
  /** Default false; kept low and apart from other hazardous items */
  hazardous?: boolean;
  /** Default 0; higher = loaded first and kept when space runs out */
  priority?: number;
  /** Name of a group */
  group?: string;
  /** #rrggbb, viewer and PDF only */
  color?: string;
  /** Telescoping overlap of stacked identical units, default 0; less than height (cm) */
  nesting_height?: number;
  /** Default quantity of items made from the template (1–10000); the item may override it */
  quantity?: number;
};

/** TemplateList */
export type TemplateList = {
  data: Template[];
  /** Pass as `cursor` for the next page; "" on the last page */
  next_cursor: string;
};

/** A saved project: vehicle slots, items, groups, options, and its last saved plan. */
export type Project = {
  /** prj_… */
  id: string;
  object: "project";
  name: string;
  vehicles: ((ProjectVehicle & {
    [key: string]: unknown;
  })[]);
  items: ((ProjectItem & {
    [key: string]: unknown;
  })[]);
  groups: Group[];
  options: Options;
  /** Result of the last saved project pack (pv_… / item_… ids); null before the first save and after that job expired. Only in GET /v1/projects/{id} */
  plan?: Result | null;
  /** Job whose plan was saved last, or null */
  plan_job_id: string | null;
  /** Summary of the saved plan, or null */
  plan_summary: {
    items_placed: number;
    items_unplaced: number;
    vehicles_used: number;
    /** kg */
    total_weight: number;
    /** 0–1 */
    volume_utilization: number;
  } | null;
  /** When the plan was saved */
  plan_saved_at: string | null;
  /** Signed browser link of the saved plan's PDF; "" when there is none or after its job's expires_at */
  pdf_url: string;
  /** Our extension (not in the spec): signed browser link of the saved plan in the interactive 3D viewer; "" whenever pdf_url is "" */
  viewer_url: string;
  /** Job id of the pack in progress, else null */
  packing: string | null;
  created_at: string;
  updated_at: string;
  /** Member whose API key created it */
  created_by: {
    /** Member id (usr_…) */
    id: string;
    name: string;
  };
  /** Member whose API key changed it last */
  updated_by: {
    /** Member id (usr_…) */
    id: string;
    name: string;
  };
};

/** A new project. `vehicles`, `items` and `groups` default to [], `options` to {}. Entries carry no `id`: the service gives `pv_…` / `item_…` ids. */
export type ProjectInput = {
  /** Shown in lists; 1–255 characters */
  name: string;
  /** Vehicle slots (at most 100); a pack needs at least one */
  vehicles?: ProjectVehicle[];
  /** Item definitions (at most 2000); a pack needs at least one */
  items?: ProjectItem[];
  /** Groups as in a PackRequest */
  groups?: Group[];
  options?: Options;
};

/** The fields given replace the stored ones; lists are replaced whole. An entry with the `id` of a current slot or item keeps it; an entry without `id` gets a new one. */
export type ProjectPatch = {
  /** Shown in lists; 1–255 characters */
  name?: string;
  /** Vehicle slots (at most 100); a pack needs at least one */
  vehicles?: ProjectVehicle[];
  /** Item definitions (at most 2000); a pack needs at least one */
  items?: ProjectItem[];
  /** Groups as in a PackRequest */
  groups?: Group[];
  options?: Options;
};

/** ProjectList */
export type ProjectList = {
  data: Project[];
  /** Pass as `cursor` for the next page; "" on the last page */
  next_cursor: string;
};

/** A vehicle slot of a project: `vehicle_id` names a preset or one of the organization's vehicles; `quantity` (default 1) and any other Vehicle field sent beside it override the saved vehicle. Results of project jobs name the slot id (`pv_…`). */
export type ProjectVehicle = {
  /** pv_… given by the service; send it back on PATCH to keep this slot, leave it out for a new one */
  id?: string;
  /** Id of a saved vehicle (GET /v1/vehicles) */
  vehicle_id: string;
  /** Vehicle type; must be in the organization's allowed_vehicle_types */
  type?: "truck" | "trailer" | "flatbed" | "container" | "pallet" | "aircraft" | "ship";
  /** Defaults to the saved name or the id */
  name?: string;
  /** Inner length along x, front wall toward the door (cm) */
  length?: number;
  /** Inner width along z (cm) */
  width?: number;
  /** Inner height along y (cm) */
  height?: number;
  /** Payload (kg) */
  max_weight?: number;
  /** Identical vehicles available; default 1 */
  quantity?: number;
  /** Floor load capacity per m² (kg/m²), 0 = no limit (kg) */
  floor_load_capacity?: number;
  /** Double-decker; default false */
  aux_deck?: boolean;
  /** Height of the auxiliary deck; required when aux_deck is true (cm) */
  aux_deck_height?: number;
  /** Payload of the auxiliary deck; required when aux_deck is true (kg) */
  aux_deck_max_weight?: number;
  /** Floor zones nothing may stand on; each must lie on the floor */
  blocked_areas?: Rect[];
  /** cm from the front of the cargo area, negative = ahead of it; each between -300 and the vehicle length; same length as axle_max_loads */
  axle_positions?: number[];
  /** kg per axle, each > 0 and ≤ 100000 */
  axle_max_loads?: number[];
  /** Allowed centre-of-gravity deviation along x, 0 to length/2 (cm) */
  cog_range_x?: number;
  /** Allowed centre-of-gravity deviation across, 0 to width/2 (cm) */
  cog_range_y?: number;
  /** Tractor weight, semi-trailer axle model (kg) */
  tractor_weight?: number;
  /** Empty trailer weight (kg) */
  empty_trailer_weight?: number;
  /** Front axle to middle axle (cm) */
  front_axle_to_middle_axle?: number;
  /** Front axle to tractor centre of gravity (cm) */
  front_axle_to_tractor_cog?: number;
  /** Front axle to kingpin (cm) */
  front_axle_to_kingpin?: number;
  /** Kingpin to rear axle (cm) */
  kingpin_to_rear_axle?: number;
  /** Trailer centre of gravity to rear axle (cm) */
  trailer_cog_to_rear_axle?: number;
  /** Trailer start to kingpin (cm) */
  trailer_start_to_kingpin?: number;
  /** Maximum middle axle load (kg) */
  max_middle_axle_weight?: number;
  /** Maximum rear axle load (kg) */
  max_rear_axle_weight?: number;
};

/** An item definition of a project in the pack item shape (`template_id` supplies every field, fields beside it override). Results of project jobs name the item id (`item_…`). */
export type ProjectItem = {
  /** item_… given by the service; send it back on PATCH to keep this item, leave it out for a new one */
  id?: string;
  /** Id of a saved cargo template (tpl_…) */
  template_id?: string;
  /** Defaults to the id */
  label?: string;
  /** Default box; cylinder and drum use radius + height; pallet and drum always stay upright */
  shape?: "box" | "cylinder" | "pallet" | "bag" | "drum";
  /** Length along x as defined (cm) */
  length?: number;
  /** Width along z as defined (cm) */
  width?: number;
  /** Vertical side as defined (cm) */
  height?: number;
  /** Radius of a cylinder or drum (cm) */
  radius?: number;
  /** One unit (kg) */
  weight?: number;
  /** Identical units; default 1 */
  quantity?: number;
  /** Default true; false keeps everything off the top */
  stackable?: boolean;
  /** Weight resting on one unit, 0 = unlimited (kg) */
  max_stack_weight?: number;
  /** all (default, six orientations), upright (about the vertical axis only), fixed */
  rotation?: "all" | "upright" | "fixed";
  /** Default false; kept low and apart from other hazardous items */
  hazardous?: boolean;
  /** Default 0; higher = loaded first and kept when space runs out */
  priority?: number;
  /** Name of a group */
  group?: string;
  /** #rrggbb, viewer and PDF only */
  color?: string;
  /** Telescoping overlap of stacked identical units, default 0; less than height (cm) */
  nesting_height?: number;
};

/** Our extension (not in the spec). The plan of a succeeded job as the 3D viewer draws it. Lengths cm, weights kg. */
export type ViewerPlan = {
  /** The job (`job_…`) */
  job_id: string;
  /** Which revision of the job's plan this is: 0 = the plan the job made, N = revision N */
  revision: number;
  /** Caller's reference from the request, or null */
  reference: string | null;
  /** When the job was created */
  created_at: string;
  /** The link and this document are deleted then */
  expires_at: string;
  /** Loaded vehicles in loading order */
  vehicles: ViewerVehicle[];
  /** Units that could not be placed, with the reason */
  unplaced: UnplacedItem[];
  /** Every item definition of the job, placed or not */
  items: ViewerItem[];
  /** Item groups in loading order */
  groups: ViewerGroup[];
  /** Remarks about the plan */
  warnings: Warning[];
  /** How the viewer shows lengths and weights: the organization's display units (metric: cm, kg; imperial: in, lb). The figures of this document stay cm and kg. */
  display_units: "metric" | "imperial";
  /** The job's request resolved into plain numbers, so the viewer's edit mode checks a changed plan with the service's own verifier; null when the request is not stored */
  model: ViewerModel | null;
};

/** Our extension (not in the spec). A pack request resolved into plain numbers (presets, templates, overrides and defaults applied): what the solver and the plan verifier read. Lengths cm, weights kg, times ms. Field names are the service's own (camelCase). */
export type ViewerModel = {
  /** Vehicle definitions (`id`, size, `maxWeight`, `quantity`, `blockedAreas`, `auxDeck`, `axles`…) */
  vehicles: {
    /** vehicle_id of the Result */
    id: string;
    name: string;
    /** cm, along x */
    length: number;
    /** cm, along z */
    width: number;
    /** cm, along y */
    height: number;
    /** Payload, kg */
    maxWeight: number;
    /** Copies listed */
    quantity: number;
  }[];
  /** Item definitions with their allowed orientations, in preference order */
  items: {
    /** item_id of the Result */
    id: string;
    /** cm, as defined */
    length: number;
    /** cm, as defined */
    width: number;
    /** cm, as defined */
    height: number;
    /** kg, one unit */
    weight: number;
    /** Units requested */
    quantity: number;
    /** Allowed orientations (spec Placement.orientation), never empty */
    orientations: (("lwh" | "wlh" | "lhw" | "hwl" | "whl" | "hlw")[]);
  }[];
  packingMode: "auto" | "fleet_only";
  /** Most vehicles the plan may use */
  maxVehicles: number;
  allowOverweight: boolean;
  /** Units in one stack, 0 = unlimited */
  maxStackItems: number;
  /** kg/m² of a stack, 0 = unlimited */
  maxStackDensity: number;
  enforceAxle: boolean;
  groupRouting: "none" | "wall" | "routing" | "no_stack";
};

/** Our extension (not in the spec). A ResultVehicle with its floor zones and second deck. */
export type ViewerVehicle = ResultVehicle & {
  /** Floor zones nothing may stand on (cm) */
  blocked_areas: Rect[];
  /** The second deck, or null */
  aux_deck: {
    /** Deck floor height (cm) */
    height: number;
    /** kg the deck carries */
    max_weight: number;
  } | null;
};

/** Our extension (not in the spec). An item definition (SKU) as the viewer shows it. */
export type ViewerItem = {
  /** item_id of its placements */
  id: string;
  label: string;
  shape: "box" | "cylinder" | "pallet" | "bag" | "drum";
  /** cm, as defined */
  length: number;
  /** cm, as defined */
  width: number;
  /** cm, as defined */
  height: number;
  /** kg, one unit */
  weight: number;
  /** Units requested */
  quantity: number;
  /** Group name, or null */
  group: string | null;
  /** `#rrggbb` given for the item or its group, else null (the viewer picks a palette colour like the PDF) */
  color: string | null;
  hazardous: boolean;
};

/** Our extension (not in the spec). An item group. */
export type ViewerGroup = {
  name: string;
  /** Lower = loaded first (deeper) */
  order: number;
  /** `#rrggbb` given, else null */
  color: string | null;
};

/** Our extension (not in the spec). Where to send which job events. */
export type WebhookEndpointInput = {
  /** https:// or http:// URL; its host must resolve to public addresses only */
  url: string;
  /** Event kinds to receive */
  events: (("job.succeeded" | "job.failed" | "job.canceled")[]);
};

/** Our extension (not in the spec). A URL receiving signed job events: POST `{id, type, created_at, data: {job}}` with `Packing-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with secret>` and `Packing-Event-Id` (the same on every retry: de-duplicate by it; delivery is at least once). */
export type WebhookEndpoint = {
  /** whe_… */
  id: string;
  object: "webhook_endpoint";
  url: string;
  events: (("job.succeeded" | "job.failed" | "job.canceled")[]);
  /** disabled: nothing is sent to it any more (see disabled_reason); delete it when it is no longer wanted */
  status: "active" | "disabled";
  /** creator_removed: the member who created it was removed from the organization */
  disabled_reason: "creator_removed" | null;
  disabled_at: string | null;
  /** whsec_…: the signing secret, only in the answer to the POST that created the endpoint */
  secret?: string;
  created_at: string;
  created_by: {
    id: string;
    name: string;
  };
};

/** Our extension (not in the spec). One event sent to one endpoint. Failed attempts are retried with exponential backoff for three days. */
export type WebhookDelivery = {
  /** whd_… */
  id: string;
  object: "webhook_delivery";
  endpoint_id: string;
  /** evt_…: the `id` of the body and the Packing-Event-Id header */
  event_id: string;
  type: "job.succeeded" | "job.failed" | "job.canceled";
  job_id: string;
  /** failed: given up after the retry window; dropped: the endpoint was deleted or disabled first */
  status: "pending" | "succeeded" | "failed" | "dropped";
  attempts: {
    attempt: number;
    attempted_at: string;
    /** HTTP status of the answer; null when none came */
    status_code: number | null;
    /** Why no answer came (refused target, DNS, timeout, connection) */
    error: string | null;
    /** A 2xx answer */
    succeeded: boolean;
  }[];
  next_attempt_at: string | null;
  created_at: string;
};

/** WebhookEndpointList */
export type WebhookEndpointList = {
  data: WebhookEndpoint[];
  /** Pass as `cursor` for the next page; "" on the last page */
  next_cursor: string;
};

/** WebhookDeliveryList */
export type WebhookDeliveryList = {
  data: WebhookDelivery[];
  /** Pass as `cursor` for the next page; "" on the last page */
  next_cursor: string;
};

/** Every operation of the document by operationId: method, path, parameters, body and success answers by status. */
export interface Operations {
  /** GET /health: Readiness of the service and of the engines it depends on */
  getHealth: {
    method: "GET";
    path: "/health";
    pathParams: never;
    query: never;
    body: never;
    responses: {
      200: {
        /** `ok`: every dependency up; `degraded`: one is down for less than the grace period, or one no role of this process needs (an API process answers reads from its read models while the event store is down, and writes with 503 `api_disabled`); `maintenance`: the operator has the API down for maintenance; `down` (only with 503): a dependency this process needs has been down longer than the grace period (DEPENDENCY_GRACE_MS, default 60 s) */
        status: "ok" | "degraded" | "maintenance" | "down";
        /** Last event-log position the read models applied */
        position: number;
        /** Each engine this process uses: `up`, or `down since <RFC 3339 time>` */
        dependencies: {
          event_store?: string;
          read_store?: string;
          bus?: string;
        };
        /** Only in maintenance mode: the operator's message and since when */
        maintenance?: {
          message: string;
          since: string;
        };
      };
    };
  };
  /** GET /metrics: Operator metrics (Prometheus text format) */
  getMetrics: {
    method: "GET";
    path: "/metrics";
    pathParams: never;
    query: never;
    body: never;
    responses: {
      200: string;
    };
  };
  /** GET /openapi.json: This OpenAPI 3.1 document */
  getOpenApi: {
    method: "GET";
    path: "/openapi.json";
    pathParams: never;
    query: never;
    body: never;
    responses: {
      200: {
        [key: string]: unknown;
      };
    };
  };
  /** GET /docs: Reference docs (HTML) */
  getDocs: {
    method: "GET";
    path: "/docs";
    pathParams: never;
    query: never;
    body: never;
    responses: {
      200: string;
    };
  };
  /** POST /v1/pack: Create a packing job */
  createPackJob: {
    method: "POST";
    path: "/v1/pack";
    pathParams: never;
    query: {
      /** Seconds to wait for the job to end (0–60, default 0) */
      wait?: number;
    };
    body: PackRequest;
    responses: {
      200: Job;
      202: Job;
    };
  };
  /** POST /v1/estimate: Validate and price a pack request, free */
  estimatePackJob: {
    method: "POST";
    path: "/v1/estimate";
    pathParams: never;
    query: never;
    body: PackRequest;
    responses: {
      200: Estimate;
    };
  };
  /** POST /v1/plans/verify: Verify a plan against its request, free */
  verifyPlan: {
    method: "POST";
    path: "/v1/plans/verify";
    pathParams: never;
    query: never;
    body: PlanVerifyRequest;
    responses: {
      200: PlanVerification;
    };
  };
  /** GET /v1/jobs: List jobs */
  listJobs: {
    method: "GET";
    path: "/v1/jobs";
    pathParams: never;
    query: {
      /** Page size, 1–100 (default 20) */
      limit?: number;
      /** The `next_cursor` of the previous page, unchanged */
      cursor?: string;
      /** Case-insensitive text found in the job id or its reference (at most 200 characters) */
      q?: string;
      /** `me` (the member of the calling key) or a member id `usr_…`: jobs created with that member's keys */
      created_by?: string;
      /** One status or a comma-separated list: queued, running, succeeded, failed, canceled */
      status?: string;
      /** Exact `reference` of the job */
      reference?: string;
      /** Only jobs created after this time (RFC 3339, exclusive) */
      created_after?: string;
      /** Only jobs created before this time (RFC 3339, exclusive) */
      created_before?: string;
      /** Only jobs run through the API (`api`) or from the web app's playground (`playground`) */
      source?: "api" | "playground";
      /** Only jobs of this project (`prj_…`, created by POST /v1/projects/{id}/pack) */
      project_id?: string;
    };
    body: never;
    responses: {
      200: JobList;
    };
  };
  /** GET /v1/jobs/{id}: Get a job */
  getJob: {
    method: "GET";
    path: "/v1/jobs/{id}";
    pathParams: {
      /** Job id (`job_…`) */
      id: string;
    };
    query: {
      /** Seconds to wait for the job to end (0–60, default 0) */
      wait?: number;
      /** `result` inlines the result of a succeeded job within retention; `request` adds the PackRequest of the job (our extension); `result,request` both */
      include?: "result" | "request" | "result,request" | "request,result";
    };
    body: never;
    responses: {
      200: Job;
    };
  };
  /** DELETE /v1/jobs/{id}: Cancel a queued or running job */
  cancelJob: {
    method: "DELETE";
    path: "/v1/jobs/{id}";
    pathParams: {
      /** Job id (`job_…`) */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: Job;
    };
  };
  /** GET /v1/jobs/{id}/result: Get the result of a succeeded job */
  getJobResult: {
    method: "GET";
    path: "/v1/jobs/{id}/result";
    pathParams: {
      /** Job id (`job_…`) */
      id: string;
    };
    query: {
      /** Plan revision (POST /v1/jobs/{id}/revisions): 0 or absent is the job's own plan; an unknown revision answers 404 `not_found` */
      revision?: number;
    };
    body: never;
    responses: {
      200: Result;
    };
  };
  /** POST /v1/jobs/{id}/revisions: Save a revision of a job's plan (edit it) */
  createPlanRevision: {
    method: "POST";
    path: "/v1/jobs/{id}/revisions";
    pathParams: {
      /** Job id (`job_…`) */
      id: string;
    };
    query: never;
    body: PlanRevisionInput;
    responses: {
      201: PlanRevisionCreated;
    };
  };
  /** GET /v1/jobs/{id}/revisions: List the revisions of a job's plan */
  listPlanRevisions: {
    method: "GET";
    path: "/v1/jobs/{id}/revisions";
    pathParams: {
      /** Job id (`job_…`) */
      id: string;
    };
    query: {
      /** Page size, 1–100, default 20 */
      limit?: number;
      /** next_cursor of the previous page */
      cursor?: string;
      /** `me` or a member id (usr_…): records that member created */
      created_by?: string;
    };
    body: never;
    responses: {
      200: PlanRevisionList;
    };
  };
  /** GET /v1/jobs/{id}/loading_list: Download the loading list of a succeeded job (CSV or Excel) */
  getJobLoadingList: {
    method: "GET";
    path: "/v1/jobs/{id}/loading_list";
    pathParams: {
      /** Job id (`job_…`) */
      id: string;
    };
    query: {
      /** `csv` (default) or `xlsx` */
      format?: "csv" | "xlsx";
      /** Plan revision (POST /v1/jobs/{id}/revisions): 0 or absent is the job's own plan; an unknown revision answers 404 `not_found` */
      revision?: number;
    };
    body: never;
    responses: {
      200: string;
    };
  };
  /** GET /v1/limits: The organization's limits and rate card */
  getLimits: {
    method: "GET";
    path: "/v1/limits";
    pathParams: never;
    query: never;
    body: never;
    responses: {
      200: Limits;
    };
  };
  /** GET /v1/balance: The organization's credits */
  getBalance: {
    method: "GET";
    path: "/v1/balance";
    pathParams: never;
    query: never;
    body: never;
    responses: {
      200: Balance;
    };
  };
  /** GET /v1/usage: The organization's usage */
  getUsage: {
    method: "GET";
    path: "/v1/usage";
    pathParams: never;
    query: {
      /** First day, YYYY-MM-DD (UTC; default: 29 days before `to`) */
      from?: string;
      /** Last day, inclusive, YYYY-MM-DD (UTC; default: today) */
      to?: string;
      /** `day` lists every date of the range in `days` */
      group_by?: "day";
    };
    body: never;
    responses: {
      200: Usage;
    };
  };
  /** GET /v1/vehicles: List vehicles, presets included */
  listVehicles: {
    method: "GET";
    path: "/v1/vehicles";
    pathParams: never;
    query: {
      /** Page size, 1–100, default 20 */
      limit?: number;
      /** next_cursor of the previous page */
      cursor?: string;
      /** Case-insensitive text to find (at most 200 characters) */
      q?: string;
      /** `me` or a member id (usr_…): records that member created */
      created_by?: string;
    };
    body: never;
    responses: {
      200: VehicleList;
    };
  };
  /** POST /v1/vehicles: Save a vehicle */
  createVehicle: {
    method: "POST";
    path: "/v1/vehicles";
    pathParams: never;
    query: never;
    body: VehicleInput;
    responses: {
      201: SavedVehicle;
    };
  };
  /** GET /v1/vehicles/{id}: Get a vehicle or preset */
  getVehicle: {
    method: "GET";
    path: "/v1/vehicles/{id}";
    pathParams: {
      /** veh_… or a preset slug */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: SavedVehicle;
    };
  };
  /** PATCH /v1/vehicles/{id}: Change a vehicle */
  updateVehicle: {
    method: "PATCH";
    path: "/v1/vehicles/{id}";
    pathParams: {
      /** veh_… or a preset slug */
      id: string;
    };
    query: never;
    body: VehiclePatch;
    responses: {
      200: SavedVehicle;
    };
  };
  /** DELETE /v1/vehicles/{id}: Delete a vehicle */
  deleteVehicle: {
    method: "DELETE";
    path: "/v1/vehicles/{id}";
    pathParams: {
      /** veh_… or a preset slug */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: Deleted;
    };
  };
  /** GET /v1/templates: List cargo templates */
  listTemplates: {
    method: "GET";
    path: "/v1/templates";
    pathParams: never;
    query: {
      /** Page size, 1–100, default 20 */
      limit?: number;
      /** next_cursor of the previous page */
      cursor?: string;
      /** Case-insensitive text to find (at most 200 characters) */
      q?: string;
      /** `me` or a member id (usr_…): records that member created */
      created_by?: string;
    };
    body: never;
    responses: {
      200: TemplateList;
    };
  };
  /** POST /v1/templates: Save a cargo template */
  createTemplate: {
    method: "POST";
    path: "/v1/templates";
    pathParams: never;
    query: never;
    body: TemplateInput;
    responses: {
      201: Template;
    };
  };
  /** GET /v1/templates/{id}: Get a cargo template */
  getTemplate: {
    method: "GET";
    path: "/v1/templates/{id}";
    pathParams: {
      /** tpl_… */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: Template;
    };
  };
  /** PATCH /v1/templates/{id}: Change a cargo template */
  updateTemplate: {
    method: "PATCH";
    path: "/v1/templates/{id}";
    pathParams: {
      /** tpl_… */
      id: string;
    };
    query: never;
    body: TemplatePatch;
    responses: {
      200: Template;
    };
  };
  /** DELETE /v1/templates/{id}: Delete a cargo template */
  deleteTemplate: {
    method: "DELETE";
    path: "/v1/templates/{id}";
    pathParams: {
      /** tpl_… */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: Deleted;
    };
  };
  /** GET /v1/projects: List projects */
  listProjects: {
    method: "GET";
    path: "/v1/projects";
    pathParams: never;
    query: {
      /** Page size, 1–100, default 20 */
      limit?: number;
      /** next_cursor of the previous page */
      cursor?: string;
      /** Case-insensitive text to find (at most 200 characters) */
      q?: string;
      /** `me` or a member id (usr_…): records that member created */
      created_by?: string;
    };
    body: never;
    responses: {
      200: ProjectList;
    };
  };
  /** POST /v1/projects: Create a project */
  createProject: {
    method: "POST";
    path: "/v1/projects";
    pathParams: never;
    query: never;
    body: ProjectInput;
    responses: {
      201: Project;
    };
  };
  /** GET /v1/projects/{id}: Get a project with its plan */
  getProject: {
    method: "GET";
    path: "/v1/projects/{id}";
    pathParams: {
      /** prj_… */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: Project;
    };
  };
  /** PATCH /v1/projects/{id}: Update a project */
  updateProject: {
    method: "PATCH";
    path: "/v1/projects/{id}";
    pathParams: {
      /** prj_… */
      id: string;
    };
    query: never;
    body: ProjectPatch;
    responses: {
      200: Project;
    };
  };
  /** DELETE /v1/projects/{id}: Delete a project */
  deleteProject: {
    method: "DELETE";
    path: "/v1/projects/{id}";
    pathParams: {
      /** prj_… */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: Deleted;
    };
  };
  /** POST /v1/projects/{id}/pack: Pack a project */
  packProject: {
    method: "POST";
    path: "/v1/projects/{id}/pack";
    pathParams: {
      /** prj_… */
      id: string;
    };
    query: {
      /** Seconds to wait for the job to end (0–60, default 0) */
      wait?: number;
    };
    body: never;
    responses: {
      200: Job;
      202: Job;
    };
  };
  /** GET /plans/{file}: The load plan as PDF (signed browser link) */
  getPlanPdf: {
    method: "GET";
    path: "/plans/{file}";
    pathParams: {
      /** `<job id>.pdf` */
      file: string;
    };
    query: {
      /** Expiry of the link (Unix time, seconds), as issued */
      expires: string;
      /** Plan revision, as issued in the `pdf_url` of a revision (signed with the link) */
      revision?: string;
      /** Signature of the link, as issued */
      signature: string;
    };
    body: never;
    responses: {
      200: string;
    };
  };
  /** GET /viewer/{job}: The load plan in an interactive 3D viewer (signed browser link) */
  getPlanViewer: {
    method: "GET";
    path: "/viewer/{job}";
    pathParams: {
      /** The job (`job_…`) */
      job: string;
    };
    query: {
      /** Expiry of the link (Unix time, seconds), as issued in `viewer_url` */
      expires: string;
      /** Plan revision, as issued in the `viewer_url` of a revision (signed with the link) */
      revision?: string;
      /** Signature of the link, as issued in `viewer_url` */
      signature: string;
    };
    body: never;
    responses: {
      200: string;
    };
  };
  /** GET /viewer/{job}/plan.json: The plan as the 3D viewer draws it (signed browser link) */
  getPlanViewerData: {
    method: "GET";
    path: "/viewer/{job}/plan.json";
    pathParams: {
      /** The job (`job_…`) */
      job: string;
    };
    query: {
      /** Expiry of the link (Unix time, seconds), as issued in `viewer_url` */
      expires: string;
      /** Plan revision, as issued in the `viewer_url` of a revision (signed with the link) */
      revision?: string;
      /** Signature of the link, as issued in `viewer_url` */
      signature: string;
    };
    body: never;
    responses: {
      200: ViewerPlan;
    };
  };
  /** POST /v1/webhook_endpoints: Register a webhook endpoint */
  createWebhookEndpoint: {
    method: "POST";
    path: "/v1/webhook_endpoints";
    pathParams: never;
    query: never;
    body: WebhookEndpointInput;
    responses: {
      201: WebhookEndpoint;
    };
  };
  /** GET /v1/webhook_endpoints: List webhook endpoints */
  listWebhookEndpoints: {
    method: "GET";
    path: "/v1/webhook_endpoints";
    pathParams: never;
    query: {
      /** Page size, 1–100, default 20 */
      limit?: number;
      /** next_cursor of the previous page */
      cursor?: string;
    };
    body: never;
    responses: {
      200: WebhookEndpointList;
    };
  };
  /** GET /v1/webhook_endpoints/{id}: Get a webhook endpoint */
  getWebhookEndpoint: {
    method: "GET";
    path: "/v1/webhook_endpoints/{id}";
    pathParams: {
      /** whe_… */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: WebhookEndpoint;
    };
  };
  /** DELETE /v1/webhook_endpoints/{id}: Delete a webhook endpoint */
  deleteWebhookEndpoint: {
    method: "DELETE";
    path: "/v1/webhook_endpoints/{id}";
    pathParams: {
      /** whe_… */
      id: string;
    };
    query: never;
    body: never;
    responses: {
      200: Deleted;
    };
  };
  /** GET /v1/webhook_endpoints/{id}/deliveries: List an endpoint's deliveries */
  listWebhookDeliveries: {
    method: "GET";
    path: "/v1/webhook_endpoints/{id}/deliveries";
    pathParams: {
      /** whe_… */
      id: string;
    };
    query: {
      /** Page size, 1–100, default 20 */
      limit?: number;
      /** next_cursor of the previous page */
      cursor?: string;
    };
    body: never;
    responses: {
      200: WebhookDeliveryList;
    };
  };
}

/** Method and path of every operation, by operationId. */
export const OPERATIONS = {
  getHealth: { method: "GET", path: "/health" },
  getMetrics: { method: "GET", path: "/metrics" },
  getOpenApi: { method: "GET", path: "/openapi.json" },
  getDocs: { method: "GET", path: "/docs" },
  createPackJob: { method: "POST", path: "/v1/pack" },
  estimatePackJob: { method: "POST", path: "/v1/estimate" },
  verifyPlan: { method: "POST", path: "/v1/plans/verify" },
  listJobs: { method: "GET", path: "/v1/jobs" },
  getJob: { method: "GET", path: "/v1/jobs/{id}" },
  cancelJob: { method: "DELETE", path: "/v1/jobs/{id}" },
  getJobResult: { method: "GET", path: "/v1/jobs/{id}/result" },
  createPlanRevision: { method: "POST", path: "/v1/jobs/{id}/revisions" },
  listPlanRevisions: { method: "GET", path: "/v1/jobs/{id}/revisions" },
  getJobLoadingList: { method: "GET", path: "/v1/jobs/{id}/loading_list" },
  getLimits: { method: "GET", path: "/v1/limits" },
  getBalance: { method: "GET", path: "/v1/balance" },
  getUsage: { method: "GET", path: "/v1/usage" },
  listVehicles: { method: "GET", path: "/v1/vehicles" },
  createVehicle: { method: "POST", path: "/v1/vehicles" },
  getVehicle: { method: "GET", path: "/v1/vehicles/{id}" },
  updateVehicle: { method: "PATCH", path: "/v1/vehicles/{id}" },
  deleteVehicle: { method: "DELETE", path: "/v1/vehicles/{id}" },
  listTemplates: { method: "GET", path: "/v1/templates" },
  createTemplate: { method: "POST", path: "/v1/templates" },
  getTemplate: { method: "GET", path: "/v1/templates/{id}" },
  updateTemplate: { method: "PATCH", path: "/v1/templates/{id}" },
  deleteTemplate: { method: "DELETE", path: "/v1/templates/{id}" },
  listProjects: { method: "GET", path: "/v1/projects" },
  createProject: { method: "POST", path: "/v1/projects" },
  getProject: { method: "GET", path: "/v1/projects/{id}" },
  updateProject: { method: "PATCH", path: "/v1/projects/{id}" },
  deleteProject: { method: "DELETE", path: "/v1/projects/{id}" },
  packProject: { method: "POST", path: "/v1/projects/{id}/pack" },
  getPlanPdf: { method: "GET", path: "/plans/{file}" },
  getPlanViewer: { method: "GET", path: "/viewer/{job}" },
  getPlanViewerData: { method: "GET", path: "/viewer/{job}/plan.json" },
  createWebhookEndpoint: { method: "POST", path: "/v1/webhook_endpoints" },
  listWebhookEndpoints: { method: "GET", path: "/v1/webhook_endpoints" },
  getWebhookEndpoint: { method: "GET", path: "/v1/webhook_endpoints/{id}" },
  deleteWebhookEndpoint: { method: "DELETE", path: "/v1/webhook_endpoints/{id}" },
  listWebhookDeliveries: { method: "GET", path: "/v1/webhook_endpoints/{id}/deliveries" },
} as const satisfies Record<keyof Operations, { method: string; path: string }>;
