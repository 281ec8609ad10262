/**
 * `auth-check-removed`: authentication and authorisation guards — decorators, mixins, permission
 * classes, dependencies, route middleware and guards — counted per file; fires when the count
 * drops. `auth-bypass-added`: text that exempts a route from its guards, fires when it rises.
 *
 * @module
 */
import { byLang, countAll, type Lang, type Rule } from "./rule_types.ts";

/** Names of auth middleware as commonly written in Express/Koa/Fastify apps. */
const MIDDLEWARE =
  /\b(?:requireAuth\w*|ensureAuth\w*|ensureLoggedIn|isAuth\w*|isLoggedIn|requireLogin|requireUser|requireAdmin|requireRole|isAdmin|verifyToken|verifyJwt|verifyJWT|checkJwt|jwtCheck|basicAuth|expressjwt|expressJwt|requiresAuth|authenticate\w*|authorize\w*|authMiddleware|authGuard|auth|protect|protectRoute|checkAuth\w*|jwtAuth|requireSession|passport\.authenticate)\b/g;

/**
 * A route registration: `app.get(`, `router.post(`, `fastify.route(`, … (only where each ends
 * is used: a name ends right before the dot, which the regular expression starts at).
 */
const ROUTE = /(?<=\w)\.(?:get|post|put|patch|delete|del|all|use|options|head|route)\s*\(/g;

/** Counts auth middleware named in the argument list of route registrations, before the handler. */
function countRouteMiddleware(text: string): number {
  let n = 0;
  ROUTE.lastIndex = 0;
  for (const m of text.matchAll(ROUTE)) {
    const start = (m.index ?? 0) + m[0].length;
    let args = text.slice(start, start + 300);
    // The handler starts the body we do not care about.
    const cut = args.search(/\bfunction\b|\basync\b|=>|\(\s*req\b|\(\s*ctx\b|\{\s*$|\)\s*;/m);
    if (cut >= 0) args = args.slice(0, cut);
    // Route paths and header names are strings, not middleware (`get("www-authenticate")`).
    args = args.replace(/(["'`])(?:\\.|(?!\1)[^\n])*\1/g, "");
    MIDDLEWARE.lastIndex = 0;
    for (const _ of args.matchAll(MIDDLEWARE)) n++;
  }
  return n;
}

const PY_GUARDS: RegExp[] = [
  /^\s*@[\w.]*(?:login_required|permission_required|user_passes_test|staff_member_required|superuser_required|admin_required|jwt_required|token_required|auth_required|requires_auth|require_auth|requires_login|require_login|login_required_\w+|fresh_login_required|roles_required|roles_accepted|permissions_required|has_permissions?|authenticated|requires_permission|require_permission|verify_token)\b/gm,
  /^\s*@[\w.]*(?:permission_classes|authentication_classes)\s*\(/gm,
  /^\s*@method_decorator\s*\(\s*\[?\s*[\w.]*(?:login_required|permission_required|user_passes_test|staff_member_required|superuser_required)\b/gm,
  /\b(?:LoginRequiredMixin|PermissionRequiredMixin|UserPassesTestMixin|AccessMixin|StaffRequiredMixin)\b/g,
  /\b(?:IsAuthenticated|IsAdminUser|IsAuthenticatedOrReadOnly|DjangoModelPermissions\w*|DjangoObjectPermissions)\b/g,
  /\b(?:Depends|Security)\s*\(\s*[\w.]*(?:current_\w*user|auth\w*|verify_\w+|require_\w+|login\w*|oauth2_scheme|api_key\w*|token\w*|permission\w*)\b/g,
  /\bif\s+not\s+[\w.]*\.(?:is_authenticated|has_perm|has_perms|is_staff|is_superuser)\b/g,
  /\b(?:abort|raise\s+\w*)\s*\(\s*(?:401|403)\b/g,
  /\braise\s+(?:PermissionDenied|NotAuthenticated|Unauthorized|Forbidden|HTTPException\s*\(\s*status_code\s*=\s*(?:401|403|status\.HTTP_40[13]\w*))/g,
];

const JS_GUARDS: RegExp[] = [
  /@UseGuards\s*\(/g,
  /@(?:Roles|Authorized|Permissions|RequirePermissions|Auth)\s*\(/g,
  /\bcanActivate\s*\(/g,
  /\b(?:preHandler|onRequest|preValidation|beforeEnter|middleware)\s*:\s*\[?[^\n\]]*?\b(?:auth\w*|authenticate\w*|requireAuth\w*|verify\w*|guard\w*)\b/gi,
  /\bstatus\s*\(\s*(?:401|403)\s*\)/g,
  /\b(?:statusCode|status)\s*=\s*(?:401|403)\b/g,
  /\bthrow\s+new\s+(?:UnauthorizedException|ForbiddenException|UnauthorizedError|ForbiddenError|AuthenticationError)\b/g,
  /\bctx\.throw\s*\(\s*(?:401|403)\b/g,
  // hapi route options: auth: 'jwt' / auth: { strategy: … }
  /\bauth["']?\s*:\s*(?:["'`][\w-]+["'`]|\{\s*(?:strategy|strategies|mode|scope)\b)/g,
];

function countAuth(text: string, lang: Lang): number {
  if (lang === "python") return countAll(text, PY_GUARDS);
  if (lang === "js") return countAll(text, JS_GUARDS) + countRouteMiddleware(text);
  return 0;
}

const FLASK_BEFORE = `from flask_login import login_required

@app.route("/pay", methods=["POST"])
@login_required
def pay():
    return charge(request.form)
`;

const EXPRESS_BEFORE = `const router = express.Router();
router.get("/health", (req, res) => res.send("ok"));
router.post("/admin/users", requireAuth, requireAdmin, async (req, res) => {
  res.json(await createUser(req.body));
});
`;

/** The `auth-check-removed` rule. */
export const AUTH_CHECK_REMOVED: Rule = {
  id: "auth-check-removed",
  severity: "high",
  mode: "guard",
  subject: "auth checks",
  justification:
    "Dropping a login, permission or role check leaves the code working and the route open to " +
    "anyone; nothing in the new text looks wrong, the evidence is what is missing.",
  langs: ["python", "js"],
  codeOnly: true,
  count: countAuth,
  examples: {
    positive: [
      {
        name: "Flask @login_required dropped",
        path: "app/pay.py",
        before: FLASK_BEFORE,
        after: FLASK_BEFORE.replace("@login_required\n", ""),
      },
      {
        name: "Flask @login_required commented out",
        path: "app/pay.py",
        before: FLASK_BEFORE,
        after: FLASK_BEFORE.replace("@login_required", "# @login_required"),
      },
      {
        name: "Express middleware removed",
        path: "src/routes.js",
        before: EXPRESS_BEFORE,
        after: EXPRESS_BEFORE.replace("requireAuth, requireAdmin, ", ""),
      },
      {
        name: "one of three Django decorators dropped",
        path: "shop/views.py",
        before:
          "@login_required\ndef a(r): pass\n@login_required\ndef b(r): pass\n@permission_required('x')\ndef c(r): pass\n",
        after:
          "@login_required\ndef a(r): pass\ndef b(r): pass\n@permission_required('x')\ndef c(r): pass\n",
      },
      {
        name: "NestJS guard removed",
        path: "src/admin.controller.ts",
        before:
          "@Controller('admin')\n@UseGuards(AuthGuard('jwt'))\nexport class AdminController {}\n",
        after: "@Controller('admin')\nexport class AdminController {}\n",
      },
    ],
    negative: [
      {
        name: "decorated view edited in place",
        path: "app/pay.py",
        before: FLASK_BEFORE,
        after: FLASK_BEFORE.replace(
          "charge(request.form)",
          "charge(request.form, idempotent=True)",
        ),
      },
      {
        name: "route handler body edited",
        path: "src/routes.js",
        before: EXPRESS_BEFORE,
        after: EXPRESS_BEFORE.replace(
          "createUser(req.body)",
          "createUser(req.body, { notify: true })",
        ),
      },
      {
        name: "guard moved to another line",
        path: "app/pay.py",
        before: FLASK_BEFORE,
        after: FLASK_BEFORE.replace(
          '@app.route("/pay", methods=["POST"])\n@login_required',
          '@login_required\n@app.route("/pay", methods=["POST"])',
        ),
      },
    ],
  },
};

/** The `auth-bypass-added` rule. */
export const AUTH_BYPASS_ADDED: Rule = {
  id: "auth-bypass-added",
  severity: "medium",
  mode: "pattern",
  subject: "auth or CSRF exemptions",
  justification:
    "Marking a route public or exempting it from CSRF is sometimes right, but it is how a guard " +
    "is switched off without removing it; worth a second look.",
  langs: ["python", "js", "other"],
  codeOnly: true,
  count: byLang({
    python: [
      /^\s*@[\w.]*csrf_exempt\b/gm,
      /\bAllowAny\b/g,
      /\bWTF_CSRF_ENABLED\s*=\s*False\b/g,
      /\bLOGIN_DISABLED\s*=\s*True\b/g,
    ],
    js: [
      /@(?:Public|SkipAuth|AllowAnonymous|NoAuth)\s*\(\s*\)/g,
      /\bcsrf["']?\s*:\s*false\b/g,
      /\bauth["']?\s*:\s*false\b/g,
    ],
  }),
  examples: {
    positive: [
      {
        name: "csrf_exempt added",
        path: "api/views.py",
        before: "def hook(request): ...\n",
        after: "@csrf_exempt\ndef hook(request): ...\n",
      },
      {
        name: "NestJS @Public added",
        path: "src/x.controller.ts",
        before: "@Get()\nlist() {}\n",
        after: "@Public()\n@Get()\nlist() {}\n",
      },
    ],
    negative: [
      {
        name: "existing AllowAny kept",
        path: "api/views.py",
        before: "permission_classes = [AllowAny]\n",
        after: "permission_classes = [AllowAny]\nthrottle_classes = []\n",
      },
    ],
  },
};
