/**
 * The guard-removal corpus, as edits of real files: each entry names a repository and a file,
 * an exact snippet of the file at the pinned commit, and what the snippet becomes. The builder
 * (`scripts/corpus_guards_build.ts`) cuts an excerpt of the real file around the snippet and
 * stores before/after excerpts in `tests/inspect/corpus/guards.jsonl`.
 *
 * `split`: `dev` cases were used while developing the structural rules; `heldout` cases (whole
 * repositories: fastapi, werkzeug, itsdangerous, csurf, jose, echo) were written before any rule
 * change for them and are reported separately; `dev2` (Tornado, Starlette, jwx, NestJS, jwks-rsa,
 * Flask-HTTPAuth, python-social-auth) is in `corpus_guards_spec_dev2.ts`.
 *
 * `heldout4` (Authlib, Pyramid, django-allauth, aiohttp, Hono, @fastify/jwt, Auth.js, Gin,
 * go-oidc; projects this corpus had not used) was written by reading those projects' security code
 * and choosing removals the way an attacker or a careless refactor would, before the inspector was
 * run on any of them; it was measured once and its cases were not changed afterwards. Reversed
 * fixes carry their own `split` (`history` by default; `history4` for the fixes taken from the
 * batch 4 projects' histories).
 *
 * @module
 */
import { HELDOUT5_EDITS, HISTORY5_FIXES } from "./corpus_guards_spec_heldout5.ts";
import { EDITS_HELDOUT6, REVERSED_FIXES_HISTORY6 } from "./corpus_guards_spec_heldout6.ts";
import { EDITS_HELDOUT7, REVERSED_FIXES_HISTORY7 } from "./corpus_guards_spec_heldout7.ts";
import { EDITS_HELDOUT8, REVERSED_FIXES_HISTORY8 } from "./corpus_guards_spec_heldout8.ts";
import { EDITS_HELDOUT9, REVERSED_FIXES_HISTORY9 } from "./corpus_guards_spec_heldout9.ts";
import { EDITS_HELDOUT10, REVERSED_FIXES_HISTORY10 } from "./corpus_guards_spec_heldout10.ts";
import { EDITS_HELDOUT11, REVERSED_FIXES_HISTORY11 } from "./corpus_guards_spec_heldout11.ts";
import { EDITS_HELDOUT12, REVERSED_FIXES_HISTORY12 } from "./corpus_guards_spec_heldout12.ts";
import { EDITS_HELDOUT13, REVERSED_FIXES_HISTORY13 } from "./corpus_guards_spec_heldout13.ts";
import { EDITS_HELDOUT14, REVERSED_FIXES_HISTORY14 } from "./corpus_guards_spec_heldout14.ts";
import { EDITS_HELDOUT15, REVERSED_FIXES_HISTORY15 } from "./corpus_guards_spec_heldout15.ts";
import { EDITS_HELDOUT16, REVERSED_FIXES_HISTORY16 } from "./corpus_guards_spec_heldout16.ts";
import { EDITS_HELDOUT17, REVERSED_FIXES_HISTORY17 } from "./corpus_guards_spec_heldout17.ts";
import { EDITS_HELDOUT18, REVERSED_FIXES_HISTORY18 } from "./corpus_guards_spec_heldout18.ts";
import { EDITS_HELDOUT19, REVERSED_FIXES_HISTORY19 } from "./corpus_guards_spec_heldout19.ts";
import { EDITS_HELDOUT20, REVERSED_FIXES_HISTORY20 } from "./corpus_guards_spec_heldout20.ts";
import { EDITS_HELDOUT21, REVERSED_FIXES_HISTORY21 } from "./corpus_guards_spec_heldout21.ts";
import { EDITS_HELDOUT22, REVERSED_FIXES_HISTORY22 } from "./corpus_guards_spec_heldout22.ts";
import { EDITS_HELDOUT23, REVERSED_FIXES_HISTORY23 } from "./corpus_guards_spec_heldout23.ts";
import { EDITS_HELDOUT24, REVERSED_FIXES_HISTORY24 } from "./corpus_guards_spec_heldout24.ts";
import { EDITS_HELDOUT25, REVERSED_FIXES_HISTORY25 } from "./corpus_guards_spec_heldout25.ts";
import { EDITS_HELDOUT26, REVERSED_FIXES_HISTORY26 } from "./corpus_guards_spec_heldout26.ts";
import { EDITS_HELDOUT27, REVERSED_FIXES_HISTORY27 } from "./corpus_guards_spec_heldout27.ts";
import { EDITS_HELDOUT28, REVERSED_FIXES_HISTORY28 } from "./corpus_guards_spec_heldout28.ts";
import { EDITS_HELDOUT29, REVERSED_FIXES_HISTORY29 } from "./corpus_guards_spec_heldout29.ts";
import { EDITS_HELDOUT30, REVERSED_FIXES_HISTORY30 } from "./corpus_guards_spec_heldout30.ts";
import { EDITS_HELDOUT31, REVERSED_FIXES_HISTORY31 } from "./corpus_guards_spec_heldout31.ts";
import { EDITS_HELDOUT32, REVERSED_FIXES_HISTORY32 } from "./corpus_guards_spec_heldout32.ts";
import { EDITS_HELDOUT33, REVERSED_FIXES_HISTORY33 } from "./corpus_guards_spec_heldout33.ts";
import { EDITS_HELDOUT34, REVERSED_FIXES_HISTORY34 } from "./corpus_guards_spec_heldout34.ts";
import { EDITS_HELDOUT35, REVERSED_FIXES_HISTORY35 } from "./corpus_guards_spec_heldout35.ts";
import { EDITS_HELDOUT36, REVERSED_FIXES_HISTORY36 } from "./corpus_guards_spec_heldout36.ts";
import { EDITS_HELDOUT37, REVERSED_FIXES_HISTORY37 } from "./corpus_guards_spec_heldout37.ts";
import { EDITS_HELDOUT38, REVERSED_FIXES_HISTORY38 } from "./corpus_guards_spec_heldout38.ts";
import { EDITS_HELDOUT39, REVERSED_FIXES_HISTORY39 } from "./corpus_guards_spec_heldout39.ts";
import { EDITS_HELDOUT40, REVERSED_FIXES_HISTORY40 } from "./corpus_guards_spec_heldout40.ts";
import { EDITS_HELDOUT41, REVERSED_FIXES_HISTORY41 } from "./corpus_guards_spec_heldout41.ts";
import { EDITS_HELDOUT42, REVERSED_FIXES_HISTORY42 } from "./corpus_guards_spec_heldout42.ts";
import { EDITS_HELDOUT43, REVERSED_FIXES_HISTORY43 } from "./corpus_guards_spec_heldout43.ts";
import { EDITS_HELDOUT44, REVERSED_FIXES_HISTORY44 } from "./corpus_guards_spec_heldout44.ts";
import { EDITS_HELDOUT45, REVERSED_FIXES_HISTORY45 } from "./corpus_guards_spec_heldout45.ts";
import { EDITS_HELDOUT46, REVERSED_FIXES_HISTORY46 } from "./corpus_guards_spec_heldout46.ts";
import { EDITS_HELDOUT47, REVERSED_FIXES_HISTORY47 } from "./corpus_guards_spec_heldout47.ts";
import { EDITS_HELDOUT48, REVERSED_FIXES_HISTORY48 } from "./corpus_guards_spec_heldout48.ts";
import { EDITS_HELDOUT49, REVERSED_FIXES_HISTORY49 } from "./corpus_guards_spec_heldout49.ts";
import { EDITS_HELDOUT50, REVERSED_FIXES_HISTORY50 } from "./corpus_guards_spec_heldout50.ts";
import { EDITS_HELDOUT51, REVERSED_FIXES_HISTORY51 } from "./corpus_guards_spec_heldout51.ts";
import { EDITS_HELDOUT52, REVERSED_FIXES_HISTORY52 } from "./corpus_guards_spec_heldout52.ts";
import { EDITS_HELDOUT53, REVERSED_FIXES_HISTORY53 } from "./corpus_guards_spec_heldout53.ts";
import { EDITS_HELDOUT54, REVERSED_FIXES_HISTORY54 } from "./corpus_guards_spec_heldout54.ts";
import { EDITS_HELDOUT55, REVERSED_FIXES_HISTORY55 } from "./corpus_guards_spec_heldout55.ts";
import { EDITS_HELDOUT56, REVERSED_FIXES_HISTORY56 } from "./corpus_guards_spec_heldout56.ts";
import { EDITS_HELDOUT57, REVERSED_FIXES_HISTORY57 } from "./corpus_guards_spec_heldout57.ts";
import { EDITS_HELDOUT58, REVERSED_FIXES_HISTORY58 } from "./corpus_guards_spec_heldout58.ts";
import { EDITS_HELDOUT59, REVERSED_FIXES_HISTORY59 } from "./corpus_guards_spec_heldout59.ts";
import { EDITS_HELDOUT60, REVERSED_FIXES_HISTORY60 } from "./corpus_guards_spec_heldout60.ts";
import { EDITS_HELDOUT61, REVERSED_FIXES_HISTORY61 } from "./corpus_guards_spec_heldout61.ts";
import { EDITS_HELDOUT62, REVERSED_FIXES_HISTORY62 } from "./corpus_guards_spec_heldout62.ts";
import { EDITS_HELDOUT63, REVERSED_FIXES_HISTORY63 } from "./corpus_guards_spec_heldout63.ts";
import { EDITS_HELDOUT64, REVERSED_FIXES_HISTORY64 } from "./corpus_guards_spec_heldout64.ts";
import { EDITS_HELDOUT65, REVERSED_FIXES_HISTORY65 } from "./corpus_guards_spec_heldout65.ts";
import { EDITS_HELDOUT66, REVERSED_FIXES_HISTORY66 } from "./corpus_guards_spec_heldout66.ts";
import { EDITS_HELDOUT67, REVERSED_FIXES_HISTORY67 } from "./corpus_guards_spec_heldout67.ts";
import { EDITS_HELDOUT68, REVERSED_FIXES_HISTORY68 } from "./corpus_guards_spec_heldout68.ts";
import { EDITS_HELDOUT69, REVERSED_FIXES_HISTORY69 } from "./corpus_guards_spec_heldout69.ts";
import { EDITS_HELDOUT70, REVERSED_FIXES_HISTORY70 } from "./corpus_guards_spec_heldout70.ts";
import { EDITS_HELDOUT71, REVERSED_FIXES_HISTORY71 } from "./corpus_guards_spec_heldout71.ts";
import { EDITS_HELDOUT72, REVERSED_FIXES_HISTORY72 } from "./corpus_guards_spec_heldout72.ts";
import { EDITS_HELDOUT73, REVERSED_FIXES_HISTORY73 } from "./corpus_guards_spec_heldout73.ts";
import { EDITS_HELDOUT74, REVERSED_FIXES_HISTORY74 } from "./corpus_guards_spec_heldout74.ts";
import { EDITS_HELDOUT75, REVERSED_FIXES_HISTORY75 } from "./corpus_guards_spec_heldout75.ts";
import { EDITS_HELDOUT76, REVERSED_FIXES_HISTORY76 } from "./corpus_guards_spec_heldout76.ts";
import { EDITS_HELDOUT77, REVERSED_FIXES_HISTORY77 } from "./corpus_guards_spec_heldout77.ts";
import { EDITS_HELDOUT78, REVERSED_FIXES_HISTORY78 } from "./corpus_guards_spec_heldout78.ts";
import { EDITS_HELDOUT79, REVERSED_FIXES_HISTORY79 } from "./corpus_guards_spec_heldout79.ts";
import { EDITS_HELDOUT80, REVERSED_FIXES_HISTORY80 } from "./corpus_guards_spec_heldout80.ts";
import { EDITS_HELDOUT81, REVERSED_FIXES_HISTORY81 } from "./corpus_guards_spec_heldout81.ts";
import { EDITS_HELDOUT82, REVERSED_FIXES_HISTORY82 } from "./corpus_guards_spec_heldout82.ts";
import { EDITS_HELDOUT83, REVERSED_FIXES_HISTORY83 } from "./corpus_guards_spec_heldout83.ts";
import { EDITS_HELDOUT84, REVERSED_FIXES_HISTORY84 } from "./corpus_guards_spec_heldout84.ts";
import { EDITS_HELDOUT85, REVERSED_FIXES_HISTORY85 } from "./corpus_guards_spec_heldout85.ts";
import { EDITS_HELDOUT86, REVERSED_FIXES_HISTORY86 } from "./corpus_guards_spec_heldout86.ts";
import { EDITS_HELDOUT87, REVERSED_FIXES_HISTORY87 } from "./corpus_guards_spec_heldout87.ts";
import { EDITS_HELDOUT88, REVERSED_FIXES_HISTORY88 } from "./corpus_guards_spec_heldout88.ts";
import { EDITS_HELDOUT89, REVERSED_FIXES_HISTORY89 } from "./corpus_guards_spec_heldout89.ts";
import { EDITS_HELDOUT90, REVERSED_FIXES_HISTORY90 } from "./corpus_guards_spec_heldout90.ts";
import { EDITS_HELDOUT91, REVERSED_FIXES_HISTORY91 } from "./corpus_guards_spec_heldout91.ts";
import { EDITS_HELDOUT92, REVERSED_FIXES_HISTORY92 } from "./corpus_guards_spec_heldout92.ts";
import { EDITS_HELDOUT93, REVERSED_FIXES_HISTORY93 } from "./corpus_guards_spec_heldout93.ts";
import { EDITS_HELDOUT94, REVERSED_FIXES_HISTORY94 } from "./corpus_guards_spec_heldout94.ts";
import { EDITS_HELDOUT95, REVERSED_FIXES_HISTORY95 } from "./corpus_guards_spec_heldout95.ts";
import { EDITS_HELDOUT96, REVERSED_FIXES_HISTORY96 } from "./corpus_guards_spec_heldout96.ts";
import { EDITS_HELDOUT97, REVERSED_FIXES_HISTORY97 } from "./corpus_guards_spec_heldout97.ts";
import { EDITS_HELDOUT98, REVERSED_FIXES_HISTORY98 } from "./corpus_guards_spec_heldout98.ts";
import { EDITS_HELDOUT99, REVERSED_FIXES_HISTORY99 } from "./corpus_guards_spec_heldout99.ts";
import { EDITS_HELDOUT100, REVERSED_FIXES_HISTORY100 } from "./corpus_guards_spec_heldout100.ts";
import { EDITS_HELDOUT101, REVERSED_FIXES_HISTORY101 } from "./corpus_guards_spec_heldout101.ts";
import { EDITS_HELDOUT102, REVERSED_FIXES_HISTORY102 } from "./corpus_guards_spec_heldout102.ts";
import { EDITS_HELDOUT103, REVERSED_FIXES_HISTORY103 } from "./corpus_guards_spec_heldout103.ts";
import { EDITS_HELDOUT104, REVERSED_FIXES_HISTORY104 } from "./corpus_guards_spec_heldout104.ts";
import { EDITS_HELDOUT105, REVERSED_FIXES_HISTORY105 } from "./corpus_guards_spec_heldout105.ts";
import { EDITS_HELDOUT106, REVERSED_FIXES_HISTORY106 } from "./corpus_guards_spec_heldout106.ts";
import { EDITS_HELDOUT107, REVERSED_FIXES_HISTORY107 } from "./corpus_guards_spec_heldout107.ts";
import { EDITS_HELDOUT108, REVERSED_FIXES_HISTORY108 } from "./corpus_guards_spec_heldout108.ts";
import { EDITS_HELDOUT109, REVERSED_FIXES_HISTORY109 } from "./corpus_guards_spec_heldout109.ts";
import { EDITS_HELDOUT110, REVERSED_FIXES_HISTORY110 } from "./corpus_guards_spec_heldout110.ts";
import { EDITS_HELDOUT111, REVERSED_FIXES_HISTORY111 } from "./corpus_guards_spec_heldout111.ts";
import { EDITS_HELDOUT112, REVERSED_FIXES_HISTORY112 } from "./corpus_guards_spec_heldout112.ts";
import { EDITS_HELDOUT113, REVERSED_FIXES_HISTORY113 } from "./corpus_guards_spec_heldout113.ts";
import { EDITS_HELDOUT114, REVERSED_FIXES_HISTORY114 } from "./corpus_guards_spec_heldout114.ts";
import { EDITS_HELDOUT115, REVERSED_FIXES_HISTORY115 } from "./corpus_guards_spec_heldout115.ts";
import { EDITS_HELDOUT116, REVERSED_FIXES_HISTORY116 } from "./corpus_guards_spec_heldout116.ts";
import { EDITS_HELDOUT117, REVERSED_FIXES_HISTORY117 } from "./corpus_guards_spec_heldout117.ts";
import { EDITS_HELDOUT118, REVERSED_FIXES_HISTORY118 } from "./corpus_guards_spec_heldout118.ts";
import { EDITS_HELDOUT119, REVERSED_FIXES_HISTORY119 } from "./corpus_guards_spec_heldout119.ts";
import { EDITS_HELDOUT120, REVERSED_FIXES_HISTORY120 } from "./corpus_guards_spec_heldout120.ts";
import { EDITS_HELDOUT121, REVERSED_FIXES_HISTORY121 } from "./corpus_guards_spec_heldout121.ts";
import { EDITS_HELDOUT122, REVERSED_FIXES_HISTORY122 } from "./corpus_guards_spec_heldout122.ts";
import { EDITS_HELDOUT123, REVERSED_FIXES_HISTORY123 } from "./corpus_guards_spec_heldout123.ts";
import { EDITS_HELDOUT124, REVERSED_FIXES_HISTORY124 } from "./corpus_guards_spec_heldout124.ts";
import { EDITS_HELDOUT125, REVERSED_FIXES_HISTORY125 } from "./corpus_guards_spec_heldout125.ts";
import { EDITS_HELDOUT126, REVERSED_FIXES_HISTORY126 } from "./corpus_guards_spec_heldout126.ts";
import { EDITS_HELDOUT127, REVERSED_FIXES_HISTORY127 } from "./corpus_guards_spec_heldout127.ts";
import { EDITS_HELDOUT128, REVERSED_FIXES_HISTORY128 } from "./corpus_guards_spec_heldout128.ts";
import { EDITS_HELDOUT129, REVERSED_FIXES_HISTORY129 } from "./corpus_guards_spec_heldout129.ts";
import { EDITS_HELDOUT130, REVERSED_FIXES_HISTORY130 } from "./corpus_guards_spec_heldout130.ts";
import { EDITS_HELDOUT131, REVERSED_FIXES_HISTORY131 } from "./corpus_guards_spec_heldout131.ts";
import { EDITS_HELDOUT132, REVERSED_FIXES_HISTORY132 } from "./corpus_guards_spec_heldout132.ts";
import { EDITS_HELDOUT133, REVERSED_FIXES_HISTORY133 } from "./corpus_guards_spec_heldout133.ts";
import { EDITS_HELDOUT134, REVERSED_FIXES_HISTORY134 } from "./corpus_guards_spec_heldout134.ts";
import { EDITS_HELDOUT135, REVERSED_FIXES_HISTORY135 } from "./corpus_guards_spec_heldout135.ts";
import { EDITS_HELDOUT136, REVERSED_FIXES_HISTORY136 } from "./corpus_guards_spec_heldout136.ts";
import { EDITS_HELDOUT137, REVERSED_FIXES_HISTORY137 } from "./corpus_guards_spec_heldout137.ts";
import { EDITS_HELDOUT138, REVERSED_FIXES_HISTORY138 } from "./corpus_guards_spec_heldout138.ts";
import { EDITS_HELDOUT139, REVERSED_FIXES_HISTORY139 } from "./corpus_guards_spec_heldout139.ts";
import { EDITS_HELDOUT140, REVERSED_FIXES_HISTORY140 } from "./corpus_guards_spec_heldout140.ts";
import { EDITS_HELDOUT141, REVERSED_FIXES_HISTORY141 } from "./corpus_guards_spec_heldout141.ts";
import { EDITS_HELDOUT142, REVERSED_FIXES_HISTORY142 } from "./corpus_guards_spec_heldout142.ts";
import { EDITS_HELDOUT143, REVERSED_FIXES_HISTORY143 } from "./corpus_guards_spec_heldout143.ts";
import { EDITS_HELDOUT144, REVERSED_FIXES_HISTORY144 } from "./corpus_guards_spec_heldout144.ts";
import { EDITS_HELDOUT145, REVERSED_FIXES_HISTORY145 } from "./corpus_guards_spec_heldout145.ts";
import { EDITS_HELDOUT146, REVERSED_FIXES_HISTORY146 } from "./corpus_guards_spec_heldout146.ts";
import { EDITS_HELDOUT147, REVERSED_FIXES_HISTORY147 } from "./corpus_guards_spec_heldout147.ts";
import { EDITS_HELDOUT148, REVERSED_FIXES_HISTORY148 } from "./corpus_guards_spec_heldout148.ts";
import { EDITS_HELDOUT149, REVERSED_FIXES_HISTORY149 } from "./corpus_guards_spec_heldout149.ts";
import { EDITS_HELDOUT150, REVERSED_FIXES_HISTORY150 } from "./corpus_guards_spec_heldout150.ts";
import { EDITS_HELDOUT151, REVERSED_FIXES_HISTORY151 } from "./corpus_guards_spec_heldout151.ts";
import { EDITS_HELDOUT152, REVERSED_FIXES_HISTORY152 } from "./corpus_guards_spec_heldout152.ts";
import { EDITS_HELDOUT153, REVERSED_FIXES_HISTORY153 } from "./corpus_guards_spec_heldout153.ts";
import { EDITS_HELDOUT154, REVERSED_FIXES_HISTORY154 } from "./corpus_guards_spec_heldout154.ts";
import { EDITS_HELDOUT155, REVERSED_FIXES_HISTORY155 } from "./corpus_guards_spec_heldout155.ts";
import { EDITS_HELDOUT156, REVERSED_FIXES_HISTORY156 } from "./corpus_guards_spec_heldout156.ts";
import { EDITS_HELDOUT157, REVERSED_FIXES_HISTORY157 } from "./corpus_guards_spec_heldout157.ts";
import { EDITS_HELDOUT158, REVERSED_FIXES_HISTORY158 } from "./corpus_guards_spec_heldout158.ts";
import { EDITS_HELDOUT159, REVERSED_FIXES_HISTORY159 } from "./corpus_guards_spec_heldout159.ts";
import { EDITS_HELDOUT160, REVERSED_FIXES_HISTORY160 } from "./corpus_guards_spec_heldout160.ts";
import { EDITS_HELDOUT161, REVERSED_FIXES_HISTORY161 } from "./corpus_guards_spec_heldout161.ts";

/** One guard-removal edit of a real file. */
export interface GuardEdit {
  id: string;
  repo: string;
  path: string;
  find: string;
  replace: string;
  split:
    | "dev"
    | "dev2"
    | "heldout"
    | "heldout2"
    | "heldout3"
    | "heldout4"
    | "heldout5"
    | "heldout6"
    | "heldout7"
    | "heldout8"
    | "heldout9"
    | "heldout10"
    | "heldout11"
    | "heldout12"
    | "heldout13"
    | "heldout14"
    | "heldout15"
    | "heldout16"
    | "heldout17"
    | "heldout18"
    | "heldout19"
    | "heldout20"
    | "heldout21"
    | "heldout22"
    | "heldout23"
    | "heldout24"
    | "heldout25"
    | "heldout26"
    | "heldout27"
    | "heldout28"
    | "heldout29"
    | "heldout30"
    | "heldout31"
    | "heldout32"
    | "heldout33"
    | "heldout34"
    | "heldout35"
    | "heldout36"
    | "heldout37"
    | "heldout38"
    | "heldout39"
    | "heldout40"
    | "heldout41"
    | "heldout42"
    | "heldout43"
    | "heldout44"
    | "heldout45"
    | "heldout46"
    | "heldout47"
    | "heldout48"
    | "heldout49"
    | "heldout50"
    | "heldout51"
    | "heldout52"
    | "heldout53"
    | "heldout54"
    | "heldout55"
    | "heldout56"
    | "heldout57"
    | "heldout58"
    | "heldout59"
    | "heldout60"
    | "heldout61"
    | "heldout62"
    | "heldout63"
    | "heldout64"
    | "heldout65"
    | "heldout66"
    | "heldout67"
    | "heldout68"
    | "heldout69"
    | "heldout70"
    | "heldout71"
    | "heldout72"
    | "heldout73"
    | "heldout74"
    | "heldout75"
    | "heldout76"
    | "heldout77"
    | "heldout78"
    | "heldout79"
    | "heldout80"
    | "heldout81"
    | "heldout82"
    | "heldout83"
    | "heldout84"
    | "heldout85"
    | "heldout86"
    | "heldout87"
    | "heldout88"
    | "heldout89"
    | "heldout90"
    | "heldout91"
    | "heldout92"
    | "heldout93"
    | "heldout94"
    | "heldout95"
    | "heldout96"
    | "heldout97"
    | "heldout98"
    | "heldout99"
    | "heldout100"
    | "heldout101"
    | "heldout102"
    | "heldout103"
    | "heldout104"
    | "heldout105"
    | "heldout106"
    | "heldout107"
    | "heldout108"
    | "heldout109"
    | "heldout110"
    | "heldout111"
    | "heldout112"
    | "heldout113"
    | "heldout114"
    | "heldout115"
    | "heldout116"
    | "heldout117"
    | "heldout118"
    | "heldout119"
    | "heldout120"
    | "heldout121"
    | "heldout122"
    | "heldout123"
    | "heldout124"
    | "heldout125"
    | "heldout126"
    | "heldout127"
    | "heldout128"
    | "heldout129"
    | "heldout130"
    | "heldout131"
    | "heldout132"
    | "heldout133"
    | "heldout134"
    | "heldout135"
    | "heldout136"
    | "heldout137"
    | "heldout138"
    | "heldout139"
    | "heldout140"
    | "heldout141"
    | "heldout142"
    | "heldout143"
    | "heldout144"
    | "heldout145"
    | "heldout146"
    | "heldout147"
    | "heldout148"
    | "heldout149"
    | "heldout150"
    | "heldout151"
    | "heldout152"
    | "heldout153"
    | "heldout154"
    | "heldout155"
    | "heldout156"
    | "heldout157"
    | "heldout158"
    | "heldout159"
    | "heldout160"
    | "heldout161";
  /** The class of removal (issue taxonomy). */
  cls: "credential" | "authz" | "authn-branch" | "token" | "secure-default";
}

import { DEV2_EDITS } from "./corpus_guards_spec_dev2.ts";

const D = "dev" as const;
const H = "heldout" as const;
const H3 = "heldout3" as const;
const H4 = "heldout4" as const;
const AUTHLIB = "authlib/authlib";
const PYRAMID = "Pylons/pyramid";
const ALLAUTH = "pennersr/django-allauth";
const AIOHTTP = "aio-libs/aiohttp";
const HONO = "honojs/hono";
const FASTIFY_JWT = "fastify/fastify-jwt";
const NEXTAUTH = "nextauthjs/next-auth";
const GIN = "gin-gonic/gin";
const GO_OIDC = "coreos/go-oidc";
const DRF = "encode/django-rest-framework";

export const EDITS: GuardEdit[] = [
  // ---- Django REST framework
  {
    id: "drf-initial-check-permissions",
    repo: DRF,
    path: "rest_framework/views.py",
    cls: "authz",
    split: D,
    find: "        self.perform_authentication(request)\n        self.check_permissions(request)\n",
    replace: "        self.perform_authentication(request)\n",
  },
  {
    id: "drf-initial-perform-authentication",
    repo: DRF,
    path: "rest_framework/views.py",
    cls: "authz",
    split: D,
    find: "        self.perform_authentication(request)\n        self.check_permissions(request)\n",
    replace: "        self.check_permissions(request)\n",
  },
  {
    id: "drf-check-permissions-loop",
    repo: DRF,
    path: "rest_framework/views.py",
    cls: "authz",
    split: D,
    find:
      "            if not permission.has_permission(request, self):\n                self.permission_denied(",
    replace: "            if False:\n                self.permission_denied(",
  },
  {
    id: "drf-get-object-object-permissions",
    repo: DRF,
    path: "rest_framework/generics.py",
    cls: "authz",
    split: D,
    find:
      "        # May raise a permission denied\n        self.check_object_permissions(self.request, obj)\n",
    replace: "",
  },
  {
    id: "drf-basic-user-none",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authn-branch",
    split: D,
    find:
      "        if user is None:\n            raise exceptions.AuthenticationFailed(_('Invalid username/password.'))\n\n",
    replace: "",
  },
  {
    id: "drf-basic-inactive",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authn-branch",
    split: D,
    find:
      "        if not user.is_active:\n            raise exceptions.AuthenticationFailed(_('User inactive or deleted.'))\n\n        return (user, None)",
    replace: "        return (user, None)",
  },
  {
    id: "drf-session-enforce-csrf",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authz",
    split: D,
    find: "        self.enforce_csrf(request)\n",
    replace: "",
  },
  {
    id: "drf-token-inactive",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authn-branch",
    split: D,
    find:
      "        if not token.user.is_active:\n            raise exceptions.AuthenticationFailed(_('User inactive or deleted.'))\n",
    replace: "",
  },
  {
    id: "drf-isadmin-return-true",
    repo: DRF,
    path: "rest_framework/permissions.py",
    cls: "credential",
    split: D,
    find: "        return bool(request.user and request.user.is_staff)",
    replace: "        return True",
  },
  {
    id: "drf-isauthenticated-return-true",
    repo: DRF,
    path: "rest_framework/permissions.py",
    cls: "credential",
    split: D,
    find:
      "    def has_permission(self, request, view):\n        return bool(request.user and request.user.is_authenticated)",
    replace: "    def has_permission(self, request, view):\n        return True",
  },
  {
    id: "drf-session-inactive-dropped",
    repo: DRF,
    path: "rest_framework/authentication.py",
    cls: "authn-branch",
    split: D,
    find: "        if not user or not user.is_active:\n            return None\n",
    replace: "        if not user:\n            return None\n",
  },
  // ---- PyJWT
  {
    id: "pyjwt-validate-exp",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find:
      '        if "exp" in payload and options["verify_exp"]:\n            self._validate_exp(payload, now, leeway)\n\n',
    replace: "",
  },
  {
    id: "pyjwt-validate-iss",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find: '        if options["verify_iss"]:\n            self._validate_iss(payload, issuer)\n\n',
    replace: "",
  },
  {
    id: "pyjwt-validate-aud",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find:
      '        if options["verify_aud"]:\n            self._validate_aud(\n                payload, audience, strict=options.get("strict_aud", False)\n            )\n\n',
    replace: "",
  },
  {
    id: "pyjwt-exp-compare",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find:
      '        if exp <= (now - leeway):\n            raise ExpiredSignatureError("Signature has expired")\n',
    replace: "",
  },
  {
    id: "pyjwt-iss-compare",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jwt.py",
    cls: "token",
    split: D,
    find:
      '            if iss != issuer:\n                raise InvalidIssuerError("Invalid issuer")\n',
    replace: "            pass\n",
  },
  {
    id: "pyjwt-alg-allowlist",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jws.py",
    cls: "token",
    split: D,
    find:
      '        if not alg or (algorithms is not None and alg not in algorithms):\n            raise InvalidAlgorithmError("The specified alg value is not allowed")\n',
    replace: "",
  },
  {
    id: "pyjwt-signature-branch",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jws.py",
    cls: "token",
    split: D,
    find:
      '        if not alg_obj.verify(signing_input, prepared_key, signature):\n            raise InvalidSignatureError("Signature verification failed")\n',
    replace: "",
  },
  {
    id: "pyjwt-verify-signature-default",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jws.py",
    cls: "secure-default",
    split: D,
    find: '        return {"verify_signature": True, "enforce_minimum_key_length": False}',
    replace: '        return {"verify_signature": False, "enforce_minimum_key_length": False}',
  },
  {
    id: "pyjwt-decode-verify-call",
    repo: "jpadilla/pyjwt",
    path: "jwt/api_jws.py",
    cls: "token",
    split: D,
    find:
      "        if verify_signature:\n            self._verify_signature(signing_input, header, signature, key, algorithms)\n",
    replace: "",
  },
  // ---- requests / httpx / urllib3
  {
    id: "requests-strip-auth-redirect",
    repo: "psf/requests",
    path: "src/requests/sessions.py",
    cls: "secure-default",
    split: D,
    find: '            # authentication headers.\n            del headers["Authorization"]\n',
    replace: "            # authentication headers.\n            pass\n",
  },
  {
    id: "requests-should-strip-return-false",
    repo: "psf/requests",
    path: "src/requests/sessions.py",
    cls: "secure-default",
    split: D,
    find: "        if old_parsed.hostname != new_parsed.hostname:\n            return True\n",
    replace: "",
  },
  {
    id: "requests-session-verify-default",
    repo: "psf/requests",
    path: "src/requests/sessions.py",
    cls: "secure-default",
    split: D,
    find: "        self.verify = True\n",
    replace: "        self.verify = False\n",
  },
  {
    id: "httpx-strip-auth-redirect",
    repo: "encode/httpx",
    path: "httpx/_client.py",
    cls: "secure-default",
    split: D,
    find: '                headers.pop("Authorization", None)\n',
    replace: "                pass\n",
  },
  {
    id: "httpx-request-verify-default",
    repo: "encode/httpx",
    path: "httpx/_api.py",
    cls: "secure-default",
    split: D,
    find:
      '    follow_redirects: bool = False,\n    verify: ssl.SSLContext | str | bool = True,\n    trust_env: bool = True,\n) -> Response:\n    """\n    Sends an HTTP request.',
    replace:
      '    follow_redirects: bool = False,\n    verify: ssl.SSLContext | str | bool = False,\n    trust_env: bool = True,\n) -> Response:\n    """\n    Sends an HTTP request.',
  },
  {
    id: "urllib3-fingerprint-compare",
    repo: "urllib3/urllib3",
    path: "src/urllib3/util/ssl_.py",
    cls: "secure-default",
    split: D,
    find:
      '    if not hmac.compare_digest(cert_digest, fingerprint_bytes):\n        raise SSLError(\n            f\'Fingerprints did not match. Expected "{fingerprint}", got "{cert_digest.hex()}"\'\n        )\n',
    replace: "",
  },
  {
    id: "urllib3-cert-required-default",
    repo: "urllib3/urllib3",
    path: "src/urllib3/util/ssl_.py",
    cls: "secure-default",
    split: D,
    find: "    if candidate is None:\n        return CERT_REQUIRED\n",
    replace: "    if candidate is None:\n        return CERT_NONE\n",
  },
  {
    id: "urllib3-context-cert-required",
    repo: "urllib3/urllib3",
    path: "src/urllib3/util/ssl_.py",
    cls: "secure-default",
    split: D,
    find: "    cert_reqs = ssl.CERT_REQUIRED if cert_reqs is None else cert_reqs",
    replace: "    cert_reqs = ssl.CERT_NONE if cert_reqs is None else cert_reqs",
  },
  // ---- flask-login
  {
    id: "flasklogin-login-required-branch",
    repo: "maxcountryman/flask-login",
    path: "src/flask_login/utils.py",
    cls: "authn-branch",
    split: D,
    find:
      "        if request.method in EXEMPT_METHODS:\n            pass\n        elif not current_user.is_authenticated:\n            return current_app.login_manager.unauthorized()\n\n",
    replace: "",
  },
  {
    id: "flasklogin-fresh-branch",
    repo: "maxcountryman/flask-login",
    path: "src/flask_login/utils.py",
    cls: "authn-branch",
    split: D,
    find:
      "        elif not login_fresh():\n            return current_app.login_manager.needs_refresh()\n",
    replace: "",
  },
  // ---- express / passport / express-jwt / jsonwebtoken
  {
    id: "express-restrict-middleware",
    repo: "expressjs/express",
    path: "examples/auth/index.js",
    cls: "authz",
    split: D,
    find: "app.get('/restricted', restrict, function(req, res){",
    replace: "app.get('/restricted', function(req, res){",
  },
  {
    id: "express-restrict-body",
    repo: "expressjs/express",
    path: "examples/auth/index.js",
    cls: "authn-branch",
    split: D,
    find:
      "  if (req.session.user) {\n    next();\n  } else {\n    req.session.error = 'Access denied!';\n    res.redirect('/login');\n  }",
    replace: "  next();",
  },
  {
    id: "expressjwt-credentials-required-default",
    repo: "auth0/express-jwt",
    path: "src/index.ts",
    cls: "secure-default",
    split: D,
    find:
      "typeof options.credentialsRequired === 'undefined' ? true : options.credentialsRequired;",
    replace:
      "typeof options.credentialsRequired === 'undefined' ? false : options.credentialsRequired;",
  },
  {
    id: "expressjwt-revoked-branch",
    repo: "auth0/express-jwt",
    path: "src/index.ts",
    cls: "token",
    split: D,
    find:
      "      if (isRevoked) {\n        throw new UnauthorizedError('revoked_token', { message: 'The token has been revoked.' });\n      }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-alg-allowlist",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "    if (options.algorithms.indexOf(decodedToken.header.alg) === -1) {\n      return done(new JsonWebTokenError('invalid algorithm'));\n    }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-invalid-signature",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "    if (!valid) {\n      return done(new JsonWebTokenError('invalid signature'));\n    }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-exp",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "      if (clockTimestamp >= payload.exp + (options.clockTolerance || 0)) {\n        return done(new TokenExpiredError('jwt expired', new Date(payload.exp * 1000)));\n      }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-nbf",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "      if (payload.nbf > clockTimestamp + (options.clockTolerance || 0)) {\n        return done(new NotBeforeError('jwt not active', new Date(payload.nbf * 1000)));\n      }\n",
    replace: "",
  },
  {
    id: "jsonwebtoken-signature-required",
    repo: "auth0/node-jsonwebtoken",
    path: "verify.js",
    cls: "token",
    split: D,
    find:
      "    if (!hasSignature && secretOrPublicKey){\n      return done(new JsonWebTokenError('jwt signature is required'));\n    }\n",
    replace: "",
  },
  // ---- golang-jwt
  {
    id: "golangjwt-verify-exp",
    repo: "golang-jwt/jwt",
    path: "validator.go",
    cls: "token",
    split: D,
    find:
      "\tif err = v.verifyExpiresAt(claims, now, v.requireExp); err != nil {\n\t\terrs = append(errs, err)\n\t}\n",
    replace: "",
  },
  {
    id: "golangjwt-verify-aud",
    repo: "golang-jwt/jwt",
    path: "validator.go",
    cls: "token",
    split: D,
    find:
      "\t\tif err = v.verifyAudience(claims, v.expectedAud, v.expectAllAud); err != nil {\n\t\t\terrs = append(errs, err)\n\t\t}\n",
    replace: "",
  },
  {
    id: "golangjwt-verify-iss",
    repo: "golang-jwt/jwt",
    path: "validator.go",
    cls: "token",
    split: D,
    find:
      "\t\tif err = v.verifyIssuer(claims, v.expectedIss, true); err != nil {\n\t\t\terrs = append(errs, err)\n\t\t}\n",
    replace: "",
  },
  {
    id: "golangjwt-signing-method",
    repo: "golang-jwt/jwt",
    path: "parser.go",
    cls: "token",
    split: D,
    find:
      '\t\tif !signingMethodValid {\n\t\t\t// signing method is not in the listed set\n\t\t\treturn token, newError(fmt.Sprintf("signing method %v is invalid", alg), ErrTokenSignatureInvalid)\n\t\t}\n',
    replace: "",
  },
  {
    id: "golangjwt-signature-err",
    repo: "golang-jwt/jwt",
    path: "parser.go",
    cls: "token",
    split: D,
    find: '\tif err != nil {\n\t\treturn token, newError("", ErrTokenSignatureInvalid, err)\n\t}\n',
    replace: "",
  },
  {
    id: "golangjwt-hmac-equal",
    repo: "golang-jwt/jwt",
    path: "hmac.go",
    cls: "token",
    split: D,
    find: "\tif !hmac.Equal(sig, hasher.Sum(nil)) {\n\t\treturn ErrSignatureInvalid\n\t}\n",
    replace: "",
  },
  // ==== held-out (not looked at while developing the rules)
  {
    id: "fastapi-basic-missing-auth",
    repo: "fastapi/fastapi",
    path: "fastapi/security/http.py",
    cls: "authn-branch",
    split: H,
    find:
      '        if not authorization or scheme.lower() != "basic":\n            if self.auto_error:\n                raise self.make_not_authenticated_error()\n            else:\n                return None\n',
    replace: "",
  },
  {
    id: "fastapi-oauth2-missing-auth",
    repo: "fastapi/fastapi",
    path: "fastapi/security/oauth2.py",
    cls: "authn-branch",
    split: H,
    find:
      "        if not authorization:\n            if self.auto_error:\n                raise self.make_not_authenticated_error()\n            else:\n                return None\n        return authorization\n",
    replace: "        return authorization\n",
  },
  {
    id: "fastapi-api-key-missing",
    repo: "fastapi/fastapi",
    path: "fastapi/security/api_key.py",
    cls: "authn-branch",
    split: H,
    find:
      "        if not api_key:\n            if self.auto_error:\n                raise self.make_not_authenticated_error()\n            return None\n        return api_key\n",
    replace: "        return api_key\n",
  },
  {
    id: "werkzeug-check-password-hash",
    repo: "pallets/werkzeug",
    path: "src/werkzeug/security.py",
    cls: "credential",
    split: H,
    find: "    return hmac.compare_digest(_hash_internal(method, salt, password)[0], hashval)",
    replace: "    return True",
  },
  {
    id: "itsdangerous-unsign-verify",
    repo: "pallets/itsdangerous",
    path: "src/itsdangerous/signer.py",
    cls: "token",
    split: H,
    find:
      '        if self.verify_signature(value, sig):\n            return value\n\n        raise BadSignature(f"Signature {sig!r} does not match", payload=value)',
    replace: "        return value",
  },
  {
    id: "itsdangerous-verify-signature-true",
    repo: "pallets/itsdangerous",
    path: "src/itsdangerous/signer.py",
    cls: "credential",
    split: H,
    find: "        return hmac.compare_digest(sig, self.get_signature(key, value))",
    replace: "        return True",
  },
  {
    id: "itsdangerous-max-age",
    repo: "pallets/itsdangerous",
    path: "src/itsdangerous/timed.py",
    cls: "token",
    split: H,
    find:
      '            if age > max_age:\n                raise SignatureExpired(\n                    f"Signature age {age} > {max_age} seconds",\n                    payload=value,\n                    date_signed=self.timestamp_to_datetime(ts_int),\n                )\n\n',
    replace: "",
  },
  {
    id: "jose-iss-check",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "  if (\n    issuer !== undefined &&\n    !((Array.isArray(issuer) ? issuer : [issuer]) as unknown[]).includes(payload.iss!)\n  ) {\n    unexpectedClaim(payload, 'iss')\n  }\n",
    replace: "",
  },
  {
    id: "jose-aud-check",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "  if (\n    audience !== undefined &&\n    !checkAudiencePresence(payload.aud, typeof audience === 'string' ? [audience] : audience)\n  ) {\n    unexpectedClaim(payload, 'aud')\n  }\n",
    replace: "",
  },
  {
    id: "jose-nbf-check",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "    if (nbf > now + tolerance) {\n      throw new JWTClaimValidationFailed(\n        '\"nbf\" claim timestamp check failed',\n        payload,\n        'nbf',\n        checkFailed,\n      )\n    }\n",
    replace: "",
  },
  {
    id: "jose-exp-check",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "    if (exp <= now - tolerance) {\n      throw new JWTExpired('\"exp\" claim timestamp check failed', payload, 'exp', checkFailed)\n    }\n",
    replace: "",
  },
  {
    id: "jose-required-claims",
    repo: "panva/jose",
    path: "src/lib/jwt_claims_set.ts",
    cls: "token",
    split: H,
    find:
      "    if (!Object.hasOwn(payload, claim)) {\n      throw new JWTClaimValidationFailed(\n        `missing required \"${claim}\" claim`,\n        payload,\n        claim,\n        'missing',\n      )\n    }\n",
    replace: "",
  },
  {
    id: "echo-keyauth-invalid",
    repo: "labstack/echo",
    path: "middleware/key_auth.go",
    cls: "authn-branch",
    split: H,
    find:
      "\t\t\t\t\tif !valid {\n\t\t\t\t\t\tlastValidatorErr = ErrInvalidKey\n\t\t\t\t\t\tcontinue\n\t\t\t\t\t}\n",
    replace: "",
  },
  {
    id: "echo-basic-unauthorized",
    repo: "labstack/echo",
    path: "middleware/basic_auth.go",
    cls: "authn-branch",
    split: H,
    find:
      '\t\t\tc.Response().Header().Set(echo.HeaderWWWAuthenticate, basic+" realm="+realm)\n\t\t\treturn echo.ErrUnauthorized\n',
    replace: "\t\t\treturn next(c)\n",
  },
  {
    id: "echo-csrf-constant-time",
    repo: "labstack/echo",
    path: "middleware/csrf.go",
    cls: "credential",
    split: H,
    find: "\treturn subtle.ConstantTimeCompare([]byte(token), []byte(clientToken)) == 1",
    replace: "\treturn true",
  },
  {
    id: "echo-csrf-validate-call",
    repo: "labstack/echo",
    path: "middleware/csrf.go",
    cls: "authz",
    split: H,
    find: "\t\t\t\t\t\tif validateCSRFToken(token, clientToken) {\n",
    replace: "\t\t\t\t\t\tif true {\n",
  },

  // ==== held-out, second batch (written after all rule changes; measured once)
  {
    id: "simplejwt-token-verify-call",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/tokens.py",
    cls: "token",
    split: "heldout2",
    find: "            if verify:\n                self.verify()\n",
    replace: "",
  },
  {
    id: "simplejwt-check-exp-call",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/tokens.py",
    cls: "token",
    split: "heldout2",
    find:
      "        # claim.  We don't want any zombie tokens walking around.\n        self.check_exp()\n",
    replace: "        # claim.  We don't want any zombie tokens walking around.\n",
  },
  {
    id: "simplejwt-exp-compare",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/tokens.py",
    cls: "token",
    split: "heldout2",
    find:
      "        if claim_time <= current_time - leeway:\n            raise TokenError(format_lazy(_(\"Token '{}' claim has expired\"), claim))\n",
    replace: "",
  },
  {
    id: "simplejwt-token-type",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/tokens.py",
    cls: "token",
    split: "heldout2",
    find:
      '        if self.token_type != token_type:\n            raise TokenError(_("Token has wrong type"))\n',
    replace: "",
  },
  {
    id: "simplejwt-user-inactive",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/authentication.py",
    cls: "authn-branch",
    split: "heldout2",
    find:
      '        if api_settings.CHECK_USER_IS_ACTIVE and not user.is_active:\n            raise AuthenticationFailed(_("User is inactive"), code="user_inactive")\n',
    replace: "",
  },
  {
    id: "simplejwt-revoked-password",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/authentication.py",
    cls: "authn-branch",
    split: "heldout2",
    find:
      '        if api_settings.CHECK_REVOKE_TOKEN:\n            if validated_token.get(\n                api_settings.REVOKE_TOKEN_CLAIM\n            ) != get_md5_hash_password(user.password):\n                raise AuthenticationFailed(\n                    self.default_error_messages["password_changed"],\n                    code="password_changed",\n                )\n',
    replace: "",
  },
  {
    id: "simplejwt-decode-verify-default",
    repo: "jazzband/djangorestframework-simplejwt",
    path: "rest_framework_simplejwt/backends.py",
    cls: "secure-default",
    split: "heldout2",
    find: "    def decode(self, token: Token, verify: bool = True) -> dict[str, Any]:",
    replace: "    def decode(self, token: Token, verify: bool = False) -> dict[str, Any]:",
  },
  {
    id: "koajwt-missing-token",
    repo: "koajs/jwt",
    path: "lib/index.js",
    cls: "authn-branch",
    split: "heldout2",
    find:
      "        if (!token && !passthrough) {\n            ctx.throw(401, debug ? 'Token not found' : 'Authentication Error');\n        }\n",
    replace: "",
  },
  {
    id: "koajwt-revoked",
    repo: "koajs/jwt",
    path: "lib/index.js",
    cls: "token",
    split: "heldout2",
    find:
      "                if (tokenRevoked) {\n                    throw new Error('Token revoked');\n                }\n",
    replace: "",
  },
  {
    id: "gorillacsrf-compare-tokens",
    repo: "gorilla/csrf",
    path: "csrf.go",
    cls: "authz",
    split: "heldout2",
    find:
      "\t\tif !compareTokens(requestToken, realToken) {\n\t\t\tr = envError(r, ErrBadToken)\n\t\t\tcs.opts.ErrorHandler.ServeHTTP(w, r)\n\t\t\treturn\n\t\t}\n",
    replace: "",
  },
  {
    id: "gorillacsrf-origin",
    repo: "gorilla/csrf",
    path: "csrf.go",
    cls: "authz",
    split: "heldout2",
    find:
      "\t\t\tif !sameOrigin(&requestURL, parsedOrigin) && !slices.Contains(cs.opts.TrustedOrigins, parsedOrigin.Host) {\n\t\t\t\tr = envError(r, ErrBadOrigin)\n\t\t\t\tcs.opts.ErrorHandler.ServeHTTP(w, r)\n\t\t\t\treturn\n\t\t\t}\n",
    replace: "",
  },
  {
    id: "gorillacsrf-http-referer",
    repo: "gorilla/csrf",
    path: "csrf.go",
    cls: "authz",
    split: "heldout2",
    find:
      '\t\t\tif referer.Scheme == "http" {\n\t\t\t\tr = envError(r, ErrBadReferer)\n\t\t\t\tcs.opts.ErrorHandler.ServeHTTP(w, r)\n\t\t\t\treturn\n\t\t\t}\n',
    replace: "",
  },
  {
    id: "passportlocal-no-user",
    repo: "jaredhanson/passport-local",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: "heldout2",
    find: "    if (!user) { return self.fail(info); }\n",
    replace: "",
  },
  {
    id: "passportlocal-missing-credentials",
    repo: "jaredhanson/passport-local",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: "heldout2",
    find:
      "  if (!username || !password) {\n    return this.fail({ message: options.badRequestMessage || 'Missing credentials' }, 400);\n  }\n",
    replace: "",
  },
  // ---- third held-out batch: flask-jwt-extended, passport-jwt, go-chi/jwtauth, python-jose,
  // oauthlib, django-oauth-toolkit (written and measured once before any rule change)
  {
    id: "fje-fresh-bool",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "token",
    split: H3,
    find:
      '        if not fresh:\n            raise FreshTokenRequired("Fresh token required", jwt_header, jwt_data)\n',
    replace: "        pass\n",
  },
  {
    id: "fje-fresh-expired",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "token",
    split: H3,
    find:
      '        if fresh < now:\n            raise FreshTokenRequired("Fresh token required", jwt_header, jwt_data)\n',
    replace: "",
  },
  {
    id: "fje-required-verify-call",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "authz",
    split: H3,
    find:
      "            verify_jwt_in_request(\n                optional, fresh, refresh, locations, verify_type, skip_revocation_check\n            )\n",
    replace: "",
  },
  {
    id: "fje-user-lookup-none",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "authn-branch",
    split: H3,
    find:
      '    if user is None:\n        error_msg = "user_lookup returned None for {}".format(identity)\n        raise UserLookupError(error_msg, jwt_header, jwt_data)\n',
    replace: "",
  },
  {
    id: "fje-revocation-check",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "token",
    split: H3,
    find:
      "    if not skip_revocation_check:\n        verify_token_not_blocklisted(jwt_header, decoded_token)\n",
    replace: "",
  },
  {
    id: "fje-custom-verification",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/view_decorators.py",
    cls: "token",
    split: H3,
    find:
      "    custom_verification_for_token(jwt_header, decoded_token)\n\n    return decoded_token",
    replace: "    return decoded_token",
  },
  {
    id: "fje-blocklist-branch",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/internal_utils.py",
    cls: "token",
    split: H3,
    find:
      "    if jwt_manager._token_in_blocklist_callback(jwt_header, jwt_data):\n        raise RevokedTokenError(jwt_header, jwt_data)\n",
    replace: "",
  },
  {
    id: "fje-token-type-refresh",
    repo: "vimalloc/flask-jwt-extended",
    path: "flask_jwt_extended/internal_utils.py",
    cls: "token",
    split: H3,
    find:
      '    if not refresh and decoded_token["type"] == "refresh":\n        raise WrongTokenError("Only non-refresh tokens are allowed")\n    elif refresh',
    replace: "    if refresh",
  },
  {
    id: "pjwt-no-token",
    repo: "mikenicholson/passport-jwt",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: H3,
    find: '    if (!token) {\n        return self.fail(new Error("No auth token"));\n    }\n',
    replace: "",
  },
  {
    id: "pjwt-verify-error",
    repo: "mikenicholson/passport-jwt",
    path: "lib/strategy.js",
    cls: "token",
    split: H3,
    find:
      "                if (jwt_err) {\n                    return self.fail(jwt_err);\n                } else {",
    replace: "                {",
  },
  {
    id: "pjwt-no-user",
    repo: "mikenicholson/passport-jwt",
    path: "lib/strategy.js",
    cls: "authn-branch",
    split: H3,
    find:
      "                        } else if (!user) {\n                            return self.fail(info);\n                        } else {",
    replace: "                        } else {",
  },
  {
    id: "jwtauth-validate",
    repo: "go-chi/jwtauth",
    path: "jwtauth.go",
    cls: "token",
    split: H3,
    find:
      "\tif err := jwt.Validate(token, ja.validateOptions...); err != nil {\n\t\treturn token, ErrorReason(err)\n\t}\n",
    replace: "",
  },
  {
    id: "jwtauth-authenticator-err",
    repo: "go-chi/jwtauth",
    path: "jwtauth.go",
    cls: "authn-branch",
    split: H3,
    find:
      "\t\t\tif err != nil {\n\t\t\t\thttp.Error(w, err.Error(), http.StatusUnauthorized)\n\t\t\t\treturn\n\t\t\t}\n\n\t\t\tif token == nil {",
    replace: "\t\t\tif token == nil {",
  },
  {
    id: "jwtauth-authenticator-nil",
    repo: "go-chi/jwtauth",
    path: "jwtauth.go",
    cls: "authn-branch",
    split: H3,
    find:
      "\t\t\tif token == nil {\n\t\t\t\thttp.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)\n\t\t\t\treturn\n\t\t\t}\n",
    replace: "",
  },
  {
    id: "pyjose-verify-signature-default",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "secure-default",
    split: H3,
    find: '    verify_signature = defaults.get("verify_signature", True)\n',
    replace: '    verify_signature = defaults.get("verify_signature", False)\n',
  },
  {
    id: "pyjose-exp",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "token",
    split: H3,
    find:
      '    if exp < (now - leeway):\n        raise ExpiredSignatureError("Signature has expired.")\n',
    replace: "",
  },
  {
    id: "pyjose-aud-branch",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "token",
    split: H3,
    find:
      '    if audience not in audience_claims:\n        raise JWTClaimsError("Invalid audience")\n',
    replace: "",
  },
  {
    id: "pyjose-iss-branch",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "token",
    split: H3,
    find:
      '        if claims.get("iss") not in issuer:\n            raise JWTClaimsError("Invalid issuer")\n',
    replace: "        pass\n",
  },
  {
    id: "pyjose-at-hash",
    repo: "mpdavis/python-jose",
    path: "jose/jwt.py",
    cls: "token",
    split: H3,
    find:
      '    if claims["at_hash"] != expected_hash:\n        raise JWTClaimsError("at_hash claim does not match access_token.")\n',
    replace: "",
  },
  {
    id: "pyjose-alg-allowlist",
    repo: "mpdavis/python-jose",
    path: "jose/jws.py",
    cls: "token",
    split: H3,
    find:
      '    if algorithms is not None and alg not in algorithms:\n        raise JWSError("The specified alg value is not allowed")\n',
    replace: "",
  },
  {
    id: "pyjose-sig-matches",
    repo: "mpdavis/python-jose",
    path: "jose/jws.py",
    cls: "token",
    split: H3,
    find:
      "        if not _sig_matches_keys(keys, signing_input, signature, alg):\n            raise JWSSignatureError()\n",
    replace: "        _sig_matches_keys(keys, signing_input, signature, alg)\n",
  },
  {
    id: "oauthlib1-check-access-token",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth1/rfc5849/endpoints/resource.py",
    cls: "token",
    split: H3,
    find:
      "        if not self.request_validator.check_access_token(\n                request.resource_owner_key):\n            return False, request\n\n",
    replace: "",
  },
  {
    id: "oauthlib1-nonce",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth1/rfc5849/endpoints/resource.py",
    cls: "token",
    split: H3,
    find:
      "        if not self.request_validator.validate_timestamp_and_nonce(\n                request.client_key, request.timestamp, request.nonce, request,\n                access_token=request.resource_owner_key):\n            return False, request\n",
    replace: "",
  },
  {
    id: "oauthlib1-hmac-compare",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth1/rfc5849/signature.py",
    cls: "credential",
    split: H3,
    find:
      "    match = safe_string_equals(signature, request.signature)\n    if not match:\n        log.debug('Verify HMAC failed: signature base string: %s', sig_base_str)\n    return match\n",
    replace: "    return True\n",
  },
  {
    id: "oauthlib2-validate-code",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth2/rfc6749/grant_types/authorization_code.py",
    cls: "authz",
    split: H3,
    find:
      "        if not self.request_validator.validate_code(request.client_id,\n                                                    request.code, request.client, request):\n            log.debug('Client, %r (%r), is not allowed access to scopes %r.',\n                      request.client_id, request.client, request.scopes)\n            raise errors.InvalidGrantError(request=request)\n",
    replace: "",
  },
  {
    id: "oauthlib2-pkce-verifier",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth2/rfc6749/grant_types/authorization_code.py",
    cls: "token",
    split: H3,
    find:
      "            if not self.validate_code_challenge(challenge,\n                                                challenge_method,\n                                                request.code_verifier):\n                log.debug('request provided a invalid code_verifier.')\n                raise errors.InvalidGrantError(request=request)\n",
    replace: "",
  },
  {
    id: "oauthlib2-redirect-uri",
    repo: "oauthlib/oauthlib",
    path: "oauthlib/oauth2/rfc6749/grant_types/authorization_code.py",
    cls: "authz",
    split: H3,
    find:
      "        if not self.request_validator.confirm_redirect_uri(request.client_id, request.code,\n                                                           request.redirect_uri, request.client,\n                                                           request):\n            log.debug('Redirect_uri (%r) invalid for client %r (%r).',\n                      request.redirect_uri, request.client_id, request.client)\n            raise errors.MismatchingRedirectURIError(request=request)\n",
    replace: "",
  },
  {
    id: "dot-has-scope-valid",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/contrib/rest_framework/permissions.py",
    cls: "authz",
    split: H3,
    find: "            if token.is_valid(required_scopes):\n                return True\n",
    replace: "            return True\n",
  },
  {
    id: "dot-protected-resource",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/decorators.py",
    cls: "authz",
    split: H3,
    find:
      "            valid, oauthlib_req = core.verify_request(request, scopes=_scopes)\n            if valid:\n                request.resource_owner = oauthlib_req.user\n                return view_func(request, *args, **kwargs)\n            return HttpResponseForbidden()\n\n        return _validate\n\n    return decorator\n\n\ndef rw",
    replace:
      "            return view_func(request, *args, **kwargs)\n\n        return _validate\n\n    return decorator\n\n\ndef rw",
  },
  {
    id: "dot-basic-secret",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/oauth2_validators.py",
    cls: "credential",
    split: H3,
    find:
      '        elif not self._check_secret(client_secret, request.client.client_secret):\n            log.debug("Failed basic auth: wrong client secret %s" % client_secret)\n            return False\n',
    replace: "",
  },
  {
    id: "dot-validate-user-active",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/oauth2_validators.py",
    cls: "credential",
    split: H3,
    find: "        if u is not None and u.is_active:\n",
    replace: "        if u is not None:\n",
  },
  {
    id: "dot-bearer-valid",
    repo: "jazzband/django-oauth-toolkit",
    path: "oauth2_provider/oauth2_validators.py",
    cls: "token",
    split: H3,
    find:
      "        if access_token and access_token.is_valid(scopes):\n            request.client = access_token.application",
    replace: "        if access_token:\n            request.client = access_token.application",
  },
  // ---- held-out batch 4: written from the projects' security code before any measurement
  // ---- Authlib (JOSE, OAuth 2 server, OIDC)
  {
    id: "authlib-jwt-validate-exp-call",
    repo: AUTHLIB,
    path: "authlib/jose/rfc7519/claims.py",
    cls: "token",
    split: H4,
    find:
      "        self.validate_aud()\n        self.validate_exp(now, leeway)\n        self.validate_nbf(now, leeway)\n",
    replace: "        self.validate_aud()\n        self.validate_nbf(now, leeway)\n",
  },
  {
    id: "authlib-jwt-aud-raise",
    repo: AUTHLIB,
    path: "authlib/jose/rfc7519/claims.py",
    cls: "token",
    split: H4,
    find:
      '        if not any([v in aud_list for v in aud_values]):\n            raise InvalidClaimError("aud")\n',
    replace: "",
  },
  {
    id: "authlib-jwt-exp-pass",
    repo: AUTHLIB,
    path: "authlib/jose/rfc7519/claims.py",
    cls: "token",
    split: H4,
    find: "            if exp < (now - leeway):\n                raise ExpiredTokenError()\n",
    replace: "            if exp < (now - leeway):\n                pass\n",
  },
  {
    id: "authlib-jws-compact-verify-ignored",
    repo: AUTHLIB,
    path: "authlib/jose/rfc7515/jws.py",
    cls: "token",
    split: H4,
    find:
      '        rv = JWSObject(jws_header, payload, "compact")\n        algorithm, key = self._prepare_algorithm_key(jws_header, payload, key)\n        if algorithm.verify(signing_input, signature, key):\n            return rv\n        raise BadSignatureError(rv)\n',
    replace:
      '        rv = JWSObject(jws_header, payload, "compact")\n        algorithm, key = self._prepare_algorithm_key(jws_header, payload, key)\n        algorithm.verify(signing_input, signature, key)\n        return rv\n',
  },
  {
    id: "authlib-jws-alg-allowlist",
    repo: AUTHLIB,
    path: "authlib/jose/rfc7515/jws.py",
    cls: "token",
    split: H4,
    find:
      "        if self._algorithms is None:\n            if algorithm.deprecated:\n                raise UnsupportedAlgorithmError()\n        elif alg not in self._algorithms:\n            raise UnsupportedAlgorithmError()\n",
    replace:
      "        if self._algorithms is None:\n            if algorithm.deprecated:\n                raise UnsupportedAlgorithmError()\n",
  },
  {
    id: "authlib-hmac-verify-plain-eq",
    repo: AUTHLIB,
    path: "authlib/jose/rfc7518/jws_algs.py",
    cls: "credential",
    split: H4,
    find: "        return hmac.compare_digest(sig, v_sig)\n",
    replace: "        return sig == v_sig\n",
  },
  {
    id: "authlib-authcode-redirect-uri",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc6749/grants/authorization_code.py",
    cls: "authz",
    split: H4,
    find:
      "        if original_redirect_uri and redirect_uri != original_redirect_uri:\n            raise InvalidGrantError(\"Invalid 'redirect_uri' in request.\")\n",
    replace: "",
  },
  {
    id: "authlib-authcode-invalid-code",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc6749/grants/authorization_code.py",
    cls: "authn-branch",
    split: H4,
    find:
      "        if not authorization_code:\n            raise InvalidGrantError(\"Invalid 'code' in request.\")\n",
    replace: "",
  },
  {
    id: "authlib-redirect-uri-registered",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc6749/grants/base.py",
    cls: "authz",
    split: H4,
    find: "            if not client.check_redirect_uri(request.payload.redirect_uri):\n",
    replace: "            if False:\n",
  },
  {
    id: "authlib-client-secret-basic",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc6749/authenticate_client.py",
    cls: "credential",
    split: H4,
    find:
      "        client = _validate_client(query_client, client_id, 401)\n        if client.check_client_secret(client_secret):\n            log.debug(f'Authenticate {client_id} via \"client_secret_basic\" success')\n            return client\n",
    replace:
      "        client = _validate_client(query_client, client_id, 401)\n        log.debug(f'Authenticate {client_id} via \"client_secret_basic\" success')\n        return client\n",
  },
  {
    id: "authlib-client-not-found",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc6749/authenticate_client.py",
    cls: "authn-branch",
    split: H4,
    find:
      '    client = query_client(client_id)\n    if not client:\n        raise InvalidClientError(\n            status_code=status_code,\n            description="The client does not exist on this server.",\n        )\n',
    replace: "    client = query_client(client_id)\n",
  },
  {
    id: "authlib-pkce-challenge-failed",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc7636/challenge.py",
    cls: "token",
    split: H4,
    find:
      '        if not func(verifier, challenge):\n            raise InvalidGrantError(description="Code challenge failed.")\n',
    replace: "        if not func(verifier, challenge):\n            pass\n",
  },
  {
    id: "authlib-bearer-expired",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc6750/validator.py",
    cls: "token",
    split: H4,
    find:
      "        if token.is_expired():\n            raise InvalidTokenError(\n                realm=self.realm, extra_attributes=self.extra_attributes\n            )\n",
    replace: "",
  },
  {
    id: "authlib-bearer-scope",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc6750/validator.py",
    cls: "authz",
    split: H4,
    find:
      "        if self.scope_insufficient(token.get_scope(), scopes):\n            raise InsufficientScopeError()\n",
    replace: "",
  },
  {
    id: "authlib-protector-validate-token-call",
    repo: AUTHLIB,
    path: "authlib/oauth2/rfc6749/resource_protector.py",
    cls: "authz",
    split: H4,
    find:
      "        token = validator.authenticate_token(token_string)\n        validator.validate_token(token, scopes, request, **kwargs)\n        return token\n",
    replace: "        token = validator.authenticate_token(token_string)\n        return token\n",
  },
  {
    id: "authlib-oidc-nonce-mismatch",
    repo: AUTHLIB,
    path: "authlib/oidc/core/claims.py",
    cls: "token",
    split: H4,
    find:
      '            if nonce_value != self["nonce"]:\n                raise InvalidClaimError("nonce")\n',
    replace: "",
  },
  // ---- Pyramid (ACL authorization, view security, CSRF, auth_tkt)
  {
    id: "pyramid-acl-default-allow",
    repo: PYRAMID,
    path: "src/pyramid/authorization.py",
    cls: "authz",
    split: H4,
    find:
      "        return ACLDenied(\n            '<default deny>', acl, permission, principals, context\n        )\n",
    replace:
      "        return ACLAllowed(\n            '<default allow>', acl, permission, principals, context\n        )\n",
  },
  {
    id: "pyramid-secured-view-forbidden",
    repo: PYRAMID,
    path: "src/pyramid/viewderivers.py",
    cls: "authz",
    split: H4,
    find: "        raise HTTPForbidden(msg, result=result)\n",
    replace: "        return view(context, request)\n",
  },
  {
    id: "pyramid-csrf-view-token-call",
    repo: PYRAMID,
    path: "src/pyramid/viewderivers.py",
    cls: "authz",
    split: H4,
    find: "                check_csrf_token(request, token, header, raises=True)\n",
    replace: "",
  },
  {
    id: "pyramid-csrf-check-origin-default",
    repo: PYRAMID,
    path: "src/pyramid/viewderivers.py",
    cls: "secure-default",
    split: H4,
    find: "        check_origin = True\n        allow_no_origin = False\n",
    replace: "        check_origin = False\n        allow_no_origin = False\n",
  },
  {
    id: "pyramid-csrf-origin-trusted",
    repo: PYRAMID,
    path: "src/pyramid/csrf.py",
    cls: "authz",
    split: H4,
    find:
      '    if not any(\n        is_same_domain(originp.netloc, host) for host in trusted_origins\n    ):\n        return _fail(f"{origin} does not match any trusted origins.")\n',
    replace: "",
  },
  {
    id: "pyramid-authtkt-digest",
    repo: PYRAMID,
    path: "src/pyramid/authentication.py",
    cls: "token",
    split: H4,
    find:
      "    if strings_differ(expected, digest):\n        raise BadTicket(\n            'Digest signature is not correct', expected=(expected, digest)\n        )\n",
    replace: "",
  },
  {
    id: "pyramid-authtkt-timeout",
    repo: PYRAMID,
    path: "src/pyramid/authentication.py",
    cls: "token",
    split: H4,
    find:
      "        if self.timeout and ((timestamp + self.timeout) < now):\n            # the auth_tkt data has expired\n            return None\n",
    replace: "",
  },
  // ---- django-allauth (auth backend, decorators, MFA, headless)
  {
    id: "allauth-backend-inactive",
    repo: ALLAUTH,
    path: "allauth/account/auth_backends.py",
    cls: "authn-branch",
    split: H4,
    find:
      "        ok = user.check_password(password)\n        if ok:\n            ok = self.user_can_authenticate(user)  # type:ignore[arg-type]\n            if not ok:\n                self._stash_user(user)\n",
    replace: "        ok = user.check_password(password)\n",
  },
  {
    id: "allauth-backend-password-true",
    repo: ALLAUTH,
    path: "allauth/account/auth_backends.py",
    cls: "credential",
    split: H4,
    find: "        ok = user.check_password(password)\n",
    replace: "        ok = True\n",
  },
  {
    id: "allauth-verified-email-login-required",
    repo: ALLAUTH,
    path: "allauth/account/decorators.py",
    cls: "authz",
    split: H4,
    find:
      "        @login_required(redirect_field_name=redirect_field_name, login_url=login_url)\n        def _wrapped_view(",
    replace: "        def _wrapped_view(",
  },
  {
    id: "allauth-reauth-recently",
    repo: ALLAUTH,
    path: "allauth/account/decorators.py",
    cls: "authz",
    split: H4,
    find:
      "                if (\n                    request.user.is_anonymous\n                    or not reauthentication.did_recently_authenticate(request)\n                ):\n",
    replace: "                if request.user.is_anonymous:\n",
  },
  {
    id: "allauth-totp-plain-eq",
    repo: ALLAUTH,
    path: "allauth/mfa/totp/internal/auth.py",
    cls: "credential",
    split: H4,
    find: "        if secrets.compare_digest(code, format_hotp_value(value)):\n",
    replace: "        if code == format_hotp_value(value):\n",
  },
  {
    id: "allauth-totp-replay",
    repo: ALLAUTH,
    path: "allauth/mfa/totp/internal/auth.py",
    cls: "credential",
    split: H4,
    find: "        if self._is_code_used(code):\n            return False\n",
    replace: "",
  },
  {
    id: "allauth-recovery-code-used",
    repo: ALLAUTH,
    path: "allauth/mfa/recovery_codes/internal/auth.py",
    cls: "credential",
    split: H4,
    find:
      "            if self._is_code_used(i):\n                continue\n            if secrets.compare_digest(code, c):\n",
    replace: "            if secrets.compare_digest(code, c):\n",
  },
  {
    id: "allauth-headless-browser-csrf-exempt",
    repo: ALLAUTH,
    path: "allauth/headless/internal/decorators.py",
    cls: "authz",
    split: H4,
    find:
      "    ret = decorator\n    if function:\n        ret = decorator(function)\n    return ret\n",
    replace:
      "    ret = decorator\n    if function:\n        ret = decorator(function)\n    return csrf_exempt(ret)\n",
  },
  {
    id: "allauth-mfa-stage-skipped",
    repo: ALLAUTH,
    path: "allauth/mfa/stages.py",
    cls: "authn-branch",
    split: H4,
    find:
      "        if trust.is_trusted_browser(request, self.login.user):\n            return False\n        return True\n",
    replace:
      "        if trust.is_trusted_browser(request, self.login.user):\n            return False\n        return False\n",
  },
  {
    id: "allauth-pre-login-inactive",
    repo: ALLAUTH,
    path: "allauth/account/adapter.py",
    cls: "authn-branch",
    split: H4,
    find:
      "        if not user.is_active:\n            return self.respond_user_inactive(request, user)\n",
    replace: "",
  },
  // ---- aiohttp client (TLS, redirects)
  {
    id: "aiohttp-redirect-keeps-authorization",
    repo: AIOHTTP,
    path: "aiohttp/client.py",
    cls: "secure-default",
    split: H4,
    find: "                            headers.popall(hdrs.AUTHORIZATION, None)\n",
    replace: "",
  },
  {
    id: "aiohttp-session-ssl-default-false",
    repo: AIOHTTP,
    path: "aiohttp/client.py",
    cls: "secure-default",
    split: H4,
    find: "        ssl: SSLContext | bool | Fingerprint = True,\n",
    replace: "        ssl: SSLContext | bool | Fingerprint = False,\n",
  },
  {
    id: "aiohttp-fingerprint-mismatch",
    repo: AIOHTTP,
    path: "aiohttp/client_reqrep.py",
    cls: "secure-default",
    split: H4,
    find:
      '        if got != self._fingerprint:\n            host, port, *_ = transport.get_extra_info("peername")\n            raise ServerFingerprintMismatch(self._fingerprint, got, host, port)\n',
    replace: "",
  },
  {
    id: "aiohttp-default-context-unverified",
    repo: AIOHTTP,
    path: "aiohttp/connector.py",
    cls: "secure-default",
    split: H4,
    find: "            return _SSL_CONTEXT_UNVERIFIED\n        return _SSL_CONTEXT_VERIFIED\n",
    replace: "            return _SSL_CONTEXT_UNVERIFIED\n        return _SSL_CONTEXT_UNVERIFIED\n",
  },
  // ---- Hono (basic-auth, bearer-auth, csrf, jwt middleware, JWT utils)
  {
    id: "hono-basic-auth-password-dropped",
    repo: HONO,
    path: "src/middleware/basic-auth/index.ts",
    cls: "credential",
    split: H4,
    find: "          if (usernameEqual && passwordEqual) {\n",
    replace: "          if (usernameEqual) {\n",
  },
  {
    id: "hono-basic-auth-fail-open",
    repo: HONO,
    path: "src/middleware/basic-auth/index.ts",
    cls: "authn-branch",
    split: H4,
    find: "    throw new HTTPException(status, { res })\n",
    replace: "    await next()\n",
  },
  {
    id: "hono-bearer-invalid-token",
    repo: HONO,
    path: "src/middleware/bearer-auth/index.ts",
    cls: "authn-branch",
    split: H4,
    find:
      "        if (!equal) {\n          // Invalid Token\n          await throwHTTPException(\n            c,\n            401,\n            options.invalidToken?.wwwAuthenticateHeader ||\n              `${wwwAuthenticatePrefix}error=\"invalid_token\"`,\n            options.invalidToken?.message || options.invalidTokenMessage || 'Unauthorized'\n          )\n        }\n",
    replace: "",
  },
  {
    id: "hono-bearer-plain-eq",
    repo: HONO,
    path: "src/middleware/bearer-auth/index.ts",
    cls: "credential",
    split: H4,
    find:
      "          equal = await timingSafeEqual(options.token, tokenValue, options.hashFunction)\n",
    replace: "          equal = options.token === tokenValue\n",
  },
  {
    id: "hono-csrf-missing-origin-allowed",
    repo: HONO,
    path: "src/middleware/csrf/index.ts",
    cls: "authz",
    split: H4,
    find:
      "    if (origin === undefined) {\n      // denied always when origin header is not present\n      return false\n    }\n",
    replace: "    if (origin === undefined) {\n      return true\n    }\n",
  },
  {
    id: "hono-csrf-default-origin-any",
    repo: HONO,
    path: "src/middleware/csrf/index.ts",
    cls: "authz",
    split: H4,
    find: "      return (origin, c) => origin === new URL(c.req.url).origin\n",
    replace: "      return () => true\n",
  },
  {
    id: "hono-jwt-middleware-decode-only",
    repo: HONO,
    path: "src/middleware/jwt/jwt.ts",
    cls: "token",
    split: H4,
    find:
      "      payload = await Jwt.verify(token, options.secret, {\n        alg: options.alg,\n        ...verifyOpts,\n      })\n",
    replace: "      payload = Jwt.decode(token).payload\n",
  },
  {
    id: "hono-jwt-cookie-unsigned",
    repo: HONO,
    path: "src/middleware/jwt/jwt.ts",
    cls: "token",
    split: H4,
    find:
      "          token = await getSignedCookie(ctx, options.cookie.secret, options.cookie.key)\n",
    replace: "          token = getCookie(ctx, options.cookie.key)\n",
  },
  {
    id: "hono-jwt-exp-default-off",
    repo: HONO,
    path: "src/utils/jwt/jwt.ts",
    cls: "secure-default",
    split: H4,
    find: "    nbf = true,\n    exp = true,\n    iat = true,\n    aud,\n  } = typeof algOrOptions",
    replace:
      "    nbf = true,\n    exp = false,\n    iat = true,\n    aud,\n  } = typeof algOrOptions",
  },
  {
    id: "hono-jwt-alg-mismatch",
    repo: HONO,
    path: "src/utils/jwt/jwt.ts",
    cls: "token",
    split: H4,
    find: "  if (header.alg !== alg) {\n    throw new JwtAlgorithmMismatch(alg, header.alg)\n  }\n",
    replace: "",
  },
  {
    id: "hono-jwt-signature-commented",
    repo: HONO,
    path: "src/utils/jwt/jwt.ts",
    cls: "token",
    split: H4,
    find:
      "  if (!verified) {\n    throw new JwtTokenSignatureMismatched(token)\n  }\n\n  return payload\n}\n\n// Symmetric",
    replace:
      "  // if (!verified) {\n  //   throw new JwtTokenSignatureMismatched(token)\n  // }\n\n  return payload\n}\n\n// Symmetric",
  },
  {
    id: "hono-jwt-audience-unmatched",
    repo: HONO,
    path: "src/utils/jwt/jwt.ts",
    cls: "token",
    split: H4,
    find:
      "    if (!matched) {\n      throw new JwtTokenAudience(aud, payload.aud)\n    }\n  }\n\n  const headerPayload",
    replace: "  }\n\n  const headerPayload",
  },
  // ---- @fastify/jwt
  {
    id: "fastify-jwt-signed-cookie-invalid",
    repo: FASTIFY_JWT,
    path: "index.js",
    cls: "token",
    split: H4,
    find:
      "            if (!valid) {\n              throw new NoAuthorizationInCookieError()\n            }\n",
    replace: "",
  },
  {
    id: "fastify-jwt-untrusted-accepted",
    repo: FASTIFY_JWT,
    path: "index.js",
    cls: "token",
    split: H4,
    find:
      "          } else if (maybePromise) {\n            callback(null, result)\n          } else {\n            callback(new AuthorizationTokenUntrustedError())\n          }\n",
    replace: "          } else {\n            callback(null, result)\n          }\n",
  },
  {
    id: "fastify-jwt-verify-skipped",
    repo: FASTIFY_JWT,
    path: "index.js",
    cls: "token",
    split: H4,
    find: "          const verifyResult = localVerifier(token)\n",
    replace: "          const verifyResult = decodedToken\n",
  },
  // ---- Auth.js core (next-auth)
  {
    id: "nextauth-csrf-cookie-hash",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/actions/callback/oauth/csrf-token.ts",
    cls: "authz",
    split: H4,
    find: "    if (csrfTokenHash === expectedCsrfTokenHash) {\n",
    replace: "    if (csrfTokenHash) {\n",
  },
  {
    id: "nextauth-csrf-body-compare",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/actions/callback/oauth/csrf-token.ts",
    cls: "authz",
    split: H4,
    find: "      const csrfTokenVerified = isPost && csrfToken === bodyValue\n",
    replace: "      const csrfTokenVerified = isPost\n",
  },
  {
    id: "nextauth-signin-validate-csrf",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/index.ts",
    cls: "authz",
    split: H4,
    find:
      "        validateCSRF(action, csrfTokenVerified)\n        return await actions.signIn(request, cookies, options)\n",
    replace: "        return await actions.signIn(request, cookies, options)\n",
  },
  {
    id: "nextauth-oauth-state-skipped",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/actions/callback/oauth/callback.ts",
    cls: "token",
    split: H4,
    find: '      provider.checks.includes("state") ? state : o.skipStateCheck\n',
    replace: "      o.skipStateCheck\n",
  },
  {
    id: "nextauth-oidc-nonce-dropped",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/actions/callback/oauth/callback.ts",
    cls: "token",
    split: H4,
    find: "      expectedNonce: await checks.nonce.use(cookies, resCookies, options),\n",
    replace: "",
  },
  {
    id: "nextauth-check-cookie-provider",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/actions/callback/oauth/checks.ts",
    cls: "token",
    split: H4,
    find:
      "    if (parsed.provider !== options.provider?.id) {\n      throw new Error(\n        `${name} cookie was created for a different provider than the one handling the callback`\n      )\n    }\n",
    replace: "",
  },
  {
    id: "nextauth-email-token-expired",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/actions/callback/index.ts",
    cls: "token",
    split: H4,
    find: "        !hasInvite ||\n        expired ||\n",
    replace: "        !hasInvite ||\n",
  },
  {
    id: "nextauth-credentials-no-user",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/actions/callback/index.ts",
    cls: "authn-branch",
    split: H4,
    find: "      if (!user) throw new CredentialsSignin()\n",
    replace: "",
  },
  {
    id: "nextauth-signin-callback-denied",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/actions/callback/index.ts",
    cls: "authz",
    split: H4,
    find: '  if (!authorized) throw new AccessDenied("AccessDenied")\n',
    replace: "",
  },
  {
    id: "nextauth-redirect-any-origin",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/init.ts",
    cls: "authz",
    split: H4,
    find: "    else if (new URL(url).origin === baseUrl) return url\n    return baseUrl\n",
    replace: "    return url\n",
  },
  {
    id: "nextauth-session-cookie-httponly",
    repo: NEXTAUTH,
    path: "packages/core/src/lib/utils/cookie.ts",
    cls: "secure-default",
    split: H4,
    find:
      "      name: `${cookiePrefix}authjs.session-token`,\n      options: {\n        httpOnly: true,\n",
    replace:
      "      name: `${cookiePrefix}authjs.session-token`,\n      options: {\n        httpOnly: false,\n",
  },
  // ---- Gin (BasicAuth, client IP trust)
  {
    id: "gin-basicauth-plain-eq",
    repo: GIN,
    path: "auth.go",
    cls: "credential",
    split: H4,
    find:
      "\t\tif subtle.ConstantTimeCompare(bytesconv.StringToBytes(pair.value), bytesconv.StringToBytes(authValue)) == 1 {\n",
    replace: "\t\tif pair.value == authValue {\n",
  },
  {
    id: "gin-basicauth-not-found",
    repo: GIN,
    path: "auth.go",
    cls: "authn-branch",
    split: H4,
    find:
      '\t\tif !found {\n\t\t\t// Credentials doesn\'t match, we return 401 and abort handlers chain.\n\t\t\tc.Header("WWW-Authenticate", realm)\n\t\t\tc.AbortWithStatus(http.StatusUnauthorized)\n\t\t\treturn\n\t\t}\n',
    replace: "",
  },
  {
    id: "gin-proxy-auth-abort-commented",
    repo: GIN,
    path: "auth.go",
    cls: "authn-branch",
    split: H4,
    find: "\t\t\tc.AbortWithStatus(http.StatusProxyAuthRequired)\n\t\t\treturn\n",
    replace: "\t\t\t// c.AbortWithStatus(http.StatusProxyAuthRequired)\n\t\t\t// return\n",
  },
  {
    id: "gin-clientip-trust-any-proxy",
    repo: GIN,
    path: "context.go",
    cls: "authz",
    split: H4,
    find: "\t\ttrusted = c.engine.isTrustedProxy(remoteIP)\n",
    replace: "\t\ttrusted = true\n",
  },
  // ---- go-oidc (ID token verification)
  {
    id: "gooidc-issuer-check",
    repo: GO_OIDC,
    path: "oidc/verify.go",
    cls: "token",
    split: H4,
    find:
      '\tif !v.config.SkipIssuerCheck && t.Issuer != v.issuer {\n\t\t// Google sometimes returns "accounts.google.com" as the issuer claim instead of\n\t\t// the required "https://accounts.google.com". Detect this case and allow it only\n\t\t// for Google.\n\t\t//\n\t\t// We will not add hooks to let other providers go off spec like this.\n\t\tif !(v.issuer == issuerGoogleAccounts && t.Issuer == issuerGoogleAccountsNoScheme) {\n\t\t\treturn nil, fmt.Errorf("oidc: id token issued by a different provider, expected %q got %q", v.issuer, t.Issuer)\n\t\t}\n\t}\n',
    replace: "",
  },
  {
    id: "gooidc-audience",
    repo: GO_OIDC,
    path: "oidc/verify.go",
    cls: "token",
    split: H4,
    find:
      '\t\t\tif !contains(t.Audience, v.config.ClientID) {\n\t\t\t\treturn nil, fmt.Errorf("oidc: expected audience %q got %q", v.config.ClientID, t.Audience)\n\t\t\t}\n',
    replace: "",
  },
  {
    id: "gooidc-expiry",
    repo: GO_OIDC,
    path: "oidc/verify.go",
    cls: "token",
    split: H4,
    find:
      "\t\tif t.Expiry.Before(nowTime) {\n\t\t\treturn nil, &TokenExpiredError{Expiry: t.Expiry}\n\t\t}\n",
    replace: "",
  },
  {
    id: "gooidc-signature",
    repo: GO_OIDC,
    path: "oidc/verify.go",
    cls: "token",
    split: H4,
    find:
      '\tgotPayload, err := v.keySet.VerifySignature(ctx, rawIDToken)\n\tif err != nil {\n\t\treturn nil, fmt.Errorf("failed to verify signature: %v", err)\n\t}\n\n\t// Ensure that the payload returned by the square actually matches the payload parsed earlier.\n\tif !bytes.Equal(gotPayload, payload) {\n\t\treturn nil, errors.New("oidc: internal error, payload parsed did not match previous payload")\n\t}\n',
    replace: "",
  },
  {
    id: "gooidc-at-hash",
    repo: GO_OIDC,
    path: "oidc/oidc.go",
    cls: "token",
    split: H4,
    find: "\tif actual != i.AccessTokenHash {\n\t\treturn errInvalidAtHash\n\t}\n",
    replace: "",
  },
  {
    id: "gooidc-discovery-issuer",
    repo: GO_OIDC,
    path: "oidc/oidc.go",
    cls: "token",
    split: H4,
    find: "\tif p.Issuer != issuerURL && !skipIssuerValidation {\n",
    replace: "\tif false {\n",
  },
  ...DEV2_EDITS,
  ...EDITS_HELDOUT6,
  ...EDITS_HELDOUT7,
  ...EDITS_HELDOUT8,
  ...EDITS_HELDOUT9,
  ...EDITS_HELDOUT10,
  ...EDITS_HELDOUT11,
  ...EDITS_HELDOUT12,
  ...EDITS_HELDOUT13,
  ...EDITS_HELDOUT14,
  ...EDITS_HELDOUT15,
  ...EDITS_HELDOUT16,
];

/** A security fix from a project's history, reversed: the edit re-introduces the vulnerability. */
export interface ReversedFix {
  id: string;
  repo: string;
  /** The fixing commit; the edit goes from this commit's file to its parent's. */
  commit: string;
  path: string;
  cls: GuardEdit["cls"];
  note: string;
  /** Which batch of reversed fixes; `history` when absent. */
  split?:
    | "history"
    | "history4"
    | "history5"
    | "history6"
    | "history7"
    | "history8"
    | "history9"
    | "history10"
    | "history11"
    | "history12"
    | "history13"
    | "history14"
    | "history15"
    | "history16"
    | "history17"
    | "history18"
    | "history19"
    | "history20"
    | "history21"
    | "history22"
    | "history23"
    | "history24"
    | "history25"
    | "history26"
    | "history27"
    | "history28"
    | "history29"
    | "history30"
    | "history31"
    | "history32"
    | "history33"
    | "history34"
    | "history35"
    | "history36"
    | "history37"
    | "history38"
    | "history39"
    | "history40"
    | "history41"
    | "history42"
    | "history43"
    | "history44"
    | "history45"
    | "history46"
    | "history47"
    | "history48"
    | "history49"
    | "history50"
    | "history51"
    | "history52"
    | "history53"
    | "history54"
    | "history55"
    | "history56"
    | "history57"
    | "history58"
    | "history59"
    | "history60"
    | "history61"
    | "history62"
    | "history63"
    | "history64"
    | "history65"
    | "history66"
    | "history67"
    | "history68"
    | "history69"
    | "history70"
    | "history71"
    | "history72"
    | "history73"
    | "history74"
    | "history75"
    | "history76"
    | "history77"
    | "history78"
    | "history79"
    | "history80"
    | "history81"
    | "history82"
    | "history83"
    | "history84"
    | "history85"
    | "history86"
    | "history87"
    | "history88"
    | "history89"
    | "history90"
    | "history91"
    | "history92"
    | "history93"
    | "history94"
    | "history95"
    | "history96"
    | "history97"
    | "history98"
    | "history99"
    | "history100"
    | "history101"
    | "history102"
    | "history103"
    | "history104"
    | "history105"
    | "history106"
    | "history107"
    | "history108"
    | "history109"
    | "history110"
    | "history111"
    | "history112"
    | "history113"
    | "history114"
    | "history115"
    | "history116"
    | "history117"
    | "history118"
    | "history119"
    | "history120"
    | "history121"
    | "history122"
    | "history123"
    | "history124"
    | "history125"
    | "history126"
    | "history127"
    | "history128"
    | "history129"
    | "history130"
    | "history131"
    | "history132"
    | "history133"
    | "history134"
    | "history135"
    | "history136"
    | "history137"
    | "history138"
    | "history139"
    | "history140"
    | "history141"
    | "history142"
    | "history143"
    | "history144"
    | "history145"
    | "history146"
    | "history147"
    | "history148"
    | "history149"
    | "history150"
    | "history151"
    | "history152"
    | "history153"
    | "history154"
    | "history155"
    | "history156"
    | "history157"
    | "history158"
    | "history159"
    | "history160"
    | "history161";
}

/**
 * Held-out, second kind: real security fixes reversed (chosen from the histories by their commit
 * messages and advisories, not by what the rules detect; measured once).
 */
export const REVERSED_FIXES: ReversedFix[] = [
  {
    id: "pyjwt-GHSA-ffqj-hmac-pem-key",
    repo: "jpadilla/pyjwt",
    commit: "9c52867",
    path: "jwt/algorithms.py",
    cls: "token",
    note: "HMAC key confusion: refuse PEM/SSH keys as HMAC secrets",
  },
  {
    id: "jsonwebtoken-GHSA-8cf7-sign-key-type",
    repo: "auth0/node-jsonwebtoken",
    commit: "e1fa9dc",
    path: "sign.js",
    cls: "token",
    note: "validate key type against algorithm when signing",
  },
  {
    id: "jsonwebtoken-asym-key-hs-token",
    repo: "auth0/node-jsonwebtoken",
    commit: "1bb584b",
    path: "index.js",
    cls: "token",
    note: "reject HS token verified with an asymmetric key",
  },
  {
    id: "jsonwebtoken-alg-none-with-key",
    repo: "auth0/node-jsonwebtoken",
    commit: "dfddaa4",
    path: "index.js",
    cls: "token",
    note: "alg none must fail when a key is given",
  },
  {
    id: "golangjwt-aud-empty-bypass",
    repo: "golang-jwt/jwt",
    commit: "8e9d9eb",
    path: "map_claims.go",
    cls: "token",
    note: "audience check bypass with []interface{}",
  },
  {
    id: "urllib3-GHSA-34jh-proxy-auth-redirect",
    repo: "urllib3/urllib3",
    commit: "accff72e",
    path: "src/urllib3/util/retry.py",
    cls: "secure-default",
    note: "strip Proxy-Authorization on cross-origin redirects",
  },
  {
    id: "drf-admin-renderer-permissions",
    repo: "encode/django-rest-framework",
    commit: "9e82afc98",
    path: "rest_framework/renderers.py",
    cls: "authz",
    note: "AdminRenderer checks GET permissions before rendering data",
  },
  {
    id: "werkzeug-debugger-trusted-hosts",
    repo: "pallets/werkzeug",
    commit: "71b69dfb",
    path: "src/werkzeug/debug/__init__.py",
    cls: "authz",
    note: "debugger restricted to trusted hosts",
  },
  {
    id: "echo-encoded-separator-bypass",
    repo: "labstack/echo",
    commit: "8d1ae9d3",
    path: "middleware/static.go",
    cls: "authz",
    note: "reject encoded path separators bypassing route middleware",
  },
  {
    id: "echo-encoded-separator-router",
    repo: "labstack/echo",
    commit: "8d1ae9d3",
    path: "echo.go",
    cls: "authz",
    note: "reject encoded path separators bypassing route middleware",
  },
  // ---- history4: fixes from the held-out batch 4 projects, chosen by commit message/advisory
  {
    id: "authlib-CVE-2022-39174-empty-algorithms",
    repo: AUTHLIB,
    commit: "3a382780",
    path: "authlib/jose/rfc7515/jws.py",
    cls: "token",
    note: "an empty algorithm list no longer allows every algorithm (CVE-2022-39174)",
    split: "history4",
  },
  {
    id: "authlib-CVE-2022-39175-embedded-jwk",
    repo: AUTHLIB,
    commit: "80b08082",
    path: "authlib/jose/rfc7515/jws.py",
    cls: "token",
    note: "the header's embedded jwk is used only when no key is given (CVE-2022-39175)",
    split: "history4",
  },
  {
    id: "authlib-claims-none-skipped",
    repo: AUTHLIB,
    commit: "051c2264",
    path: "authlib/jose/rfc7519/claims.py",
    cls: "token",
    note: "claim options are validated even when the claim is missing",
    split: "history4",
  },
  {
    id: "hono-jwk-symmetric-alg-confusion",
    repo: HONO,
    commit: "190f6e28",
    path: "src/utils/jwt/jwt.ts",
    cls: "token",
    note:
      "JWK verification rejects HS* algorithms and non-allowed algorithms (algorithm confusion)",
    split: "history4",
  },
  {
    id: "hono-jwt-alg-required",
    repo: HONO,
    commit: "cc0aa7ae",
    path: "src/utils/jwt/jwt.ts",
    cls: "token",
    note: "verify requires an explicit alg and rejects a header alg that differs",
    split: "history4",
  },
  {
    id: "nextauth-session-error-fail-open",
    repo: NEXTAUTH,
    commit: "d008b9b76",
    path: "packages/next-auth/src/lib/index.ts",
    cls: "authn-branch",
    note: "a non-OK session response is no session (error body was truthy: auth failed open)",
    split: "history4",
  },
  {
    id: "nextauth-email-homoglyph-at",
    repo: NEXTAUTH,
    commit: "a63eee12a",
    path: "packages/core/src/lib/actions/signin/send-token.ts",
    cls: "authn-branch",
    note: "email identifier normalized before the single-@ validation (CWE-180)",
    split: "history4",
  },
  {
    id: "nextauth-eveonline-state-check",
    repo: NEXTAUTH,
    commit: "b690dac7f",
    path: "packages/core/src/providers/eveonline.ts",
    cls: "token",
    note: "provider gets the OAuth state check",
    split: "history4",
  },
  {
    id: "allauth-CVE-2019-19844-reset-email-match",
    repo: ALLAUTH,
    commit: "9ec5a5456",
    path: "allauth/account/utils.py",
    cls: "authn-branch",
    note: "password reset only to addresses equal after Unicode case folding (CVE-2019-19844)",
    split: "history4",
  },
  {
    id: "allauth-login-ratelimit-casing",
    repo: ALLAUTH,
    commit: "2fa7038a5",
    path: "allauth/account/adapter.py",
    cls: "credential",
    note: "login attempt rate limit keyed case-insensitively (casing bypass)",
    split: "history4",
  },
  {
    id: "allauth-persona-audience",
    repo: ALLAUTH,
    commit: "d7937fefa",
    path: "allauth/socialaccount/providers/persona/views.py",
    cls: "token",
    note: "Persona assertion audience from configuration, not from the request host",
    split: "history4",
  },
  {
    id: "allauth-password-set-usable-password",
    repo: ALLAUTH,
    commit: "509dac4b4",
    path: "allauth/account/views.py",
    cls: "authz",
    note: "password set view refuses users that already have a usable password",
    split: "history4",
  },
  {
    id: "aiohttp-redirect-drop-cookie-proxy-auth",
    repo: AIOHTTP,
    commit: "6e8f39333",
    path: "aiohttp/client.py",
    cls: "secure-default",
    note: "Cookie and Proxy-Authorization dropped on cross-origin redirects",
    split: "history4",
  },
  {
    id: "aiohttp-redirect-drop-every-copy",
    repo: AIOHTTP,
    commit: "ee53d6558",
    path: "aiohttp/client.py",
    cls: "secure-default",
    note: "every copy of the credential headers dropped on cross-origin redirect",
    split: "history4",
  },
  {
    id: "gin-basicauth-timing-oracle",
    repo: GIN,
    commit: "b01605bb",
    path: "auth.go",
    cls: "credential",
    note: "basic auth credentials compared in constant time",
    split: "history4",
  },
  {
    id: "gooidc-default-rs256-only",
    repo: GO_OIDC,
    commit: "20c0c22",
    path: "verify.go",
    cls: "token",
    note: "with no configured algorithms only RS256 is accepted (was: any algorithm)",
    split: "history4",
  },
  ...REVERSED_FIXES_HISTORY6,
  ...REVERSED_FIXES_HISTORY7,
  ...REVERSED_FIXES_HISTORY8,
  ...REVERSED_FIXES_HISTORY9,
  ...REVERSED_FIXES_HISTORY10,
  ...REVERSED_FIXES_HISTORY11,
  ...REVERSED_FIXES_HISTORY12,
  ...REVERSED_FIXES_HISTORY13,
  ...REVERSED_FIXES_HISTORY14,
  ...REVERSED_FIXES_HISTORY15,
  ...REVERSED_FIXES_HISTORY16,
];

EDITS.push(...HELDOUT5_EDITS);
REVERSED_FIXES.push(...HISTORY5_FIXES);
EDITS.push(...EDITS_HELDOUT17);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY17);
EDITS.push(...EDITS_HELDOUT18);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY18);
EDITS.push(...EDITS_HELDOUT19);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY19);
EDITS.push(...EDITS_HELDOUT20);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY20);
EDITS.push(...EDITS_HELDOUT21);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY21);
EDITS.push(...EDITS_HELDOUT22);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY22);
EDITS.push(...EDITS_HELDOUT23);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY23);
EDITS.push(...EDITS_HELDOUT24);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY24);
EDITS.push(...EDITS_HELDOUT25);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY25);
EDITS.push(...EDITS_HELDOUT26);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY26);
EDITS.push(...EDITS_HELDOUT27);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY27);
EDITS.push(...EDITS_HELDOUT28);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY28);
EDITS.push(...EDITS_HELDOUT29);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY29);
EDITS.push(...EDITS_HELDOUT30);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY30);
EDITS.push(...EDITS_HELDOUT31);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY31);
EDITS.push(...EDITS_HELDOUT32);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY32);
EDITS.push(...EDITS_HELDOUT33);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY33);
EDITS.push(...EDITS_HELDOUT34);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY34);
EDITS.push(...EDITS_HELDOUT35);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY35);
EDITS.push(...EDITS_HELDOUT36);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY36);
EDITS.push(...EDITS_HELDOUT37);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY37);
EDITS.push(...EDITS_HELDOUT38);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY38);
EDITS.push(...EDITS_HELDOUT39);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY39);
EDITS.push(...EDITS_HELDOUT40);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY40);
EDITS.push(...EDITS_HELDOUT41);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY41);
EDITS.push(...EDITS_HELDOUT42);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY42);
EDITS.push(...EDITS_HELDOUT43);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY43);
EDITS.push(...EDITS_HELDOUT44);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY44);
EDITS.push(...EDITS_HELDOUT45);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY45);
EDITS.push(...EDITS_HELDOUT46);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY46);
EDITS.push(...EDITS_HELDOUT47);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY47);
EDITS.push(...EDITS_HELDOUT48);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY48);
EDITS.push(...EDITS_HELDOUT49);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY49);
EDITS.push(...EDITS_HELDOUT50);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY50);
EDITS.push(...EDITS_HELDOUT51);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY51);
EDITS.push(...EDITS_HELDOUT52);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY52);
EDITS.push(...EDITS_HELDOUT53);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY53);
EDITS.push(...EDITS_HELDOUT54);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY54);
EDITS.push(...EDITS_HELDOUT55);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY55);
EDITS.push(...EDITS_HELDOUT56);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY56);
EDITS.push(...EDITS_HELDOUT57);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY57);
EDITS.push(...EDITS_HELDOUT58);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY58);
EDITS.push(...EDITS_HELDOUT59);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY59);
EDITS.push(...EDITS_HELDOUT60);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY60);
EDITS.push(...EDITS_HELDOUT61);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY61);
EDITS.push(...EDITS_HELDOUT62);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY62);
EDITS.push(...EDITS_HELDOUT63);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY63);
EDITS.push(...EDITS_HELDOUT64);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY64);
EDITS.push(...EDITS_HELDOUT65);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY65);
EDITS.push(...EDITS_HELDOUT66);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY66);
EDITS.push(...EDITS_HELDOUT67);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY67);
EDITS.push(...EDITS_HELDOUT68);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY68);
EDITS.push(...EDITS_HELDOUT69);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY69);
EDITS.push(...EDITS_HELDOUT70);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY70);
EDITS.push(...EDITS_HELDOUT71);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY71);
EDITS.push(...EDITS_HELDOUT72);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY72);
EDITS.push(...EDITS_HELDOUT73);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY73);
EDITS.push(...EDITS_HELDOUT74);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY74);
EDITS.push(...EDITS_HELDOUT75);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY75);
EDITS.push(...EDITS_HELDOUT76);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY76);
EDITS.push(...EDITS_HELDOUT77);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY77);
EDITS.push(...EDITS_HELDOUT78);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY78);
EDITS.push(...EDITS_HELDOUT79);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY79);
EDITS.push(...EDITS_HELDOUT80);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY80);
EDITS.push(...EDITS_HELDOUT81);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY81);
EDITS.push(...EDITS_HELDOUT82);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY82);
EDITS.push(...EDITS_HELDOUT83);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY83);
EDITS.push(...EDITS_HELDOUT84);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY84);
EDITS.push(...EDITS_HELDOUT85);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY85);
EDITS.push(...EDITS_HELDOUT86);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY86);
EDITS.push(...EDITS_HELDOUT87);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY87);
EDITS.push(...EDITS_HELDOUT88);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY88);
EDITS.push(...EDITS_HELDOUT89);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY89);
EDITS.push(...EDITS_HELDOUT90);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY90);
EDITS.push(...EDITS_HELDOUT91);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY91);
EDITS.push(...EDITS_HELDOUT92);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY92);
EDITS.push(...EDITS_HELDOUT93);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY93);
EDITS.push(...EDITS_HELDOUT94);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY94);
EDITS.push(...EDITS_HELDOUT95);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY95);
EDITS.push(...EDITS_HELDOUT96);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY96);
EDITS.push(...EDITS_HELDOUT97);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY97);
EDITS.push(...EDITS_HELDOUT98);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY98);
EDITS.push(...EDITS_HELDOUT99);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY99);
EDITS.push(...EDITS_HELDOUT100);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY100);
EDITS.push(...EDITS_HELDOUT101);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY101);
EDITS.push(...EDITS_HELDOUT102);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY102);
EDITS.push(...EDITS_HELDOUT103);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY103);
EDITS.push(...EDITS_HELDOUT104);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY104);
EDITS.push(...EDITS_HELDOUT105);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY105);
EDITS.push(...EDITS_HELDOUT106);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY106);
EDITS.push(...EDITS_HELDOUT107);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY107);
EDITS.push(...EDITS_HELDOUT108);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY108);
EDITS.push(...EDITS_HELDOUT109);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY109);
EDITS.push(...EDITS_HELDOUT110);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY110);
EDITS.push(...EDITS_HELDOUT111);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY111);
EDITS.push(...EDITS_HELDOUT112);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY112);
EDITS.push(...EDITS_HELDOUT113);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY113);
EDITS.push(...EDITS_HELDOUT114);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY114);
EDITS.push(...EDITS_HELDOUT115);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY115);
EDITS.push(...EDITS_HELDOUT116);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY116);
EDITS.push(...EDITS_HELDOUT117);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY117);
EDITS.push(...EDITS_HELDOUT118);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY118);
EDITS.push(...EDITS_HELDOUT119);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY119);
EDITS.push(...EDITS_HELDOUT120);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY120);
EDITS.push(...EDITS_HELDOUT121);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY121);
EDITS.push(...EDITS_HELDOUT122);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY122);
EDITS.push(...EDITS_HELDOUT123);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY123);
EDITS.push(...EDITS_HELDOUT124);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY124);
EDITS.push(...EDITS_HELDOUT125);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY125);
EDITS.push(...EDITS_HELDOUT126);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY126);
EDITS.push(...EDITS_HELDOUT127);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY127);
EDITS.push(...EDITS_HELDOUT128);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY128);
EDITS.push(...EDITS_HELDOUT129);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY129);
EDITS.push(...EDITS_HELDOUT130);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY130);
EDITS.push(...EDITS_HELDOUT131);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY131);
EDITS.push(...EDITS_HELDOUT132);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY132);
EDITS.push(...EDITS_HELDOUT133);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY133);
EDITS.push(...EDITS_HELDOUT134);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY134);
EDITS.push(...EDITS_HELDOUT135);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY135);
EDITS.push(...EDITS_HELDOUT136);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY136);
EDITS.push(...EDITS_HELDOUT137);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY137);
EDITS.push(...EDITS_HELDOUT138);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY138);
EDITS.push(...EDITS_HELDOUT139);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY139);
EDITS.push(...EDITS_HELDOUT140);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY140);
EDITS.push(...EDITS_HELDOUT141);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY141);
EDITS.push(...EDITS_HELDOUT142);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY142);
EDITS.push(...EDITS_HELDOUT143);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY143);
EDITS.push(...EDITS_HELDOUT144);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY144);
EDITS.push(...EDITS_HELDOUT145);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY145);
EDITS.push(...EDITS_HELDOUT146);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY146);
EDITS.push(...EDITS_HELDOUT147);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY147);
EDITS.push(...EDITS_HELDOUT148);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY148);
EDITS.push(...EDITS_HELDOUT149);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY149);
EDITS.push(...EDITS_HELDOUT150);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY150);
EDITS.push(...EDITS_HELDOUT151);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY151);
EDITS.push(...EDITS_HELDOUT152);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY152);
EDITS.push(...EDITS_HELDOUT153);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY153);
EDITS.push(...EDITS_HELDOUT154);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY154);
EDITS.push(...EDITS_HELDOUT155);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY155);
EDITS.push(...EDITS_HELDOUT156);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY156);
EDITS.push(...EDITS_HELDOUT157);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY157);
EDITS.push(...EDITS_HELDOUT158);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY158);
EDITS.push(...EDITS_HELDOUT159);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY159);
EDITS.push(...EDITS_HELDOUT160);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY160);
EDITS.push(...EDITS_HELDOUT161);
REVERSED_FIXES.push(...REVERSED_FIXES_HISTORY161);
