/**
 * Realistic files the recall cases edit.
 */

export const DJANGO_SETTINGS = `import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
DEBUG = False
ALLOWED_HOSTS = ["shop.example.org"]
INSTALLED_APPS = ["django.contrib.auth", "django.contrib.contenttypes", "shop"]
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "shop"}}
`;

export const NODE_CONFIG = `// Runtime configuration, read once at start-up.
const config = {
  port: Number(process.env.PORT ?? 8080),
  logLevel: process.env.LOG_LEVEL ?? "info",
  region: "eu-west-1",
};
`;

export const DOTENV = "PORT=8080\nLOG_LEVEL=info\n";

export const PY_CLIENT = `import requests

API = "https://api.partner.example/v2"


def fetch_orders(session_id):
    r = requests.get(f"{API}/orders", params={"session": session_id}, timeout=10)
    r.raise_for_status()
    return r.json()
`;

export const NODE_CLIENT = `import https from "node:https";
import axios from "axios";

const agent = new https.Agent({ keepAlive: true });

export async function fetchOrders(sessionId) {
  const res = await axios.get("https://api.partner.example/v2/orders", {
    params: { session: sessionId },
    httpsAgent: agent,
    timeout: 10_000,
  });
  return res.data;
}
`;

export const FLASK_APP = `from flask import Flask, request, jsonify
from flask_login import login_required, current_user

app = Flask(__name__)


@app.route("/health")
def health():
    return "ok"


@app.route("/invoices/<int:invoice_id>/refund", methods=["POST"])
@login_required
def refund(invoice_id):
    invoice = Invoice.query.get_or_404(invoice_id)
    return jsonify(invoice.refund(amount=request.json["amount"]))
`;

export const DJANGO_VIEWS =
  `from django.contrib.auth.decorators import login_required, permission_required
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import get_object_or_404, render
from django.views.generic import ListView

from .models import Order


@login_required
def order_detail(request, pk):
    order = get_object_or_404(Order, pk=pk, owner=request.user)
    return render(request, "orders/detail.html", {"order": order})


@permission_required("orders.delete_order")
def order_delete(request, pk):
    get_object_or_404(Order, pk=pk).delete()
    return render(request, "orders/deleted.html")


class OrderList(LoginRequiredMixin, ListView):
    model = Order
`;

export const DRF_VIEWS = `from rest_framework import viewsets
from rest_framework.permissions import IsAuthenticated

from .models import Account
from .serializers import AccountSerializer


class AccountViewSet(viewsets.ModelViewSet):
    queryset = Account.objects.all()
    serializer_class = AccountSerializer
    permission_classes = [IsAuthenticated]
`;

export const FASTAPI_APP = `from fastapi import FastAPI, Depends
from .auth import get_current_user

app = FastAPI()


@app.get("/me/payments")
async def payments(user=Depends(get_current_user)):
    return await list_payments(user.id)
`;

export const EXPRESS_APP = `const express = require("express");
const passport = require("passport");
const { requireAuth } = require("./middleware/auth");

const app = express();
app.use(express.json());

app.get("/health", (req, res) => res.send("ok"));
app.post("/api/transfers", requireAuth, async (req, res) => {
  res.json(await transfers.create(req.user, req.body));
});
app.get("/api/admin/users", passport.authenticate("jwt", { session: false }), async (req, res) => {
  res.json(await users.list());
});

module.exports = app;
`;

export const NEST_CONTROLLER = `import { Controller, Get, Param, UseGuards } from "@nestjs/common";
import { AuthGuard } from "@nestjs/passport";
import { BillingService } from "./billing.service";

@Controller("billing")
@UseGuards(AuthGuard("jwt"))
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Get(":id")
  find(@Param("id") id: string) {
    return this.billing.find(id);
  }
}
`;

export const FASTIFY_ROUTES = `export default async function routes(fastify) {
  fastify.get("/public", async () => ({ ok: true }));
  fastify.route({
    method: "POST",
    url: "/orders",
    preHandler: [fastify.authenticate],
    handler: async (request) => createOrder(request.user, request.body),
  });
}
`;

export const KOA_MIDDLEWARE = `export async function adminOnly(ctx, next) {
  if (!ctx.state.user || !ctx.state.user.isAdmin) {
    ctx.throw(403, "admins only");
  }
  await next();
}
`;

export const EXPRESS_INLINE = `router.delete("/projects/:id", async (req, res) => {
  if (!req.user) {
    return res.status(401).json({ error: "login required" });
  }
  await projects.remove(req.params.id, req.user.id);
  res.status(204).end();
});
`;

export const DJANGO_INLINE = `def export_all(request):
    if not request.user.is_authenticated:
        return redirect("login")
    return export_csv(Customer.objects.all())
`;

export const WEBHOOK_PY = `import hashlib
import hmac

from flask import abort, request


def verify_github(secret: bytes) -> None:
    sig = "sha256=" + hmac.new(secret, request.data, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(sig, request.headers.get("X-Hub-Signature-256", "")):
        abort(401)
`;

export const JWT_NODE = `const jwt = require("jsonwebtoken");

function currentUser(req) {
  const token = (req.headers.authorization || "").replace(/^Bearer /, "");
  const claims = jwt.verify(token, process.env.JWT_PUBLIC_KEY, { algorithms: ["RS256"] });
  return claims.sub;
}

module.exports = { currentUser };
`;

export const PYJWT = `import jwt


def current_user(token: str, key: str) -> str:
    claims = jwt.decode(token, key, algorithms=["RS256"], audience="api")
    return claims["sub"]
`;

export const WEBHOOK_NODE = `import crypto from "node:crypto";

export function verifySlack(req, secret) {
  const base = \`v0:\${req.headers["x-slack-request-timestamp"]}:\${req.rawBody}\`;
  const mine = Buffer.from("v0=" + crypto.createHmac("sha256", secret).update(base).digest("hex"));
  const theirs = Buffer.from(req.headers["x-slack-signature"] ?? "");
  return mine.length === theirs.length && crypto.timingSafeEqual(mine, theirs);
}
`;

export const SIGNED_PY = `from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding


def load_update(blob: bytes, signature: bytes, public_key) -> bytes:
    public_key.verify(signature, blob, padding.PKCS1v15(), hashes.SHA256())
    return blob
`;

export const STRIPE_NODE = `export function handleStripe(req, res) {
  const event = stripe.webhooks.constructEvent(req.rawBody, req.headers["stripe-signature"], endpointSecret);
  dispatch(event);
  res.sendStatus(200);
}
`;

export const VERIFY_NODE = `import crypto from "node:crypto";

export function checkRelease(data, signature, publicKey) {
  const verifier = crypto.createVerify("SHA256");
  verifier.update(data);
  if (!verifier.verify(publicKey, signature, "base64")) throw new Error("bad signature");
  return data;
}
`;

export const TLS_PY = `import ssl
import socket


def open_tls(host: str, port: int = 443) -> ssl.SSLSocket:
    ctx = ssl.create_default_context()
    sock = socket.create_connection((host, port), timeout=10)
    return ctx.wrap_socket(sock, server_hostname=host)
`;

export const CBV = `from django.contrib.auth.decorators import login_required
from django.utils.decorators import method_decorator
from django.views import View


@method_decorator(login_required, name="dispatch")
class ExportView(View):
    def get(self, request):
        return export_all(request.user.company)
`;
