/*
 * Databox FALLBACK Iceberg REST catalog server (not Polaris).
 *
 * Serves the Iceberg REST protocol on 127.0.0.1 only, through Iceberg's reference
 * RESTCatalogAdapter (from the iceberg-core test jar) over a backend catalog
 * configured by CATALOG_* environment variables: CATALOG_URI -> "uri",
 * CATALOG_JDBC_USER -> "jdbc.user", CATALOG_IO__IMPL -> "io-impl" (an underscore
 * becomes '.', a double underscore becomes '-', names are lower-cased).
 * Port: CATALOG_REST_PORT (required).
 *
 * It lives in package org.apache.iceberg.rest because the adapter's route table and
 * request builder are package-private. Iceberg's own fixture server binds every
 * interface and needs a servlet container the reachable mirror lacks, so this
 * class serves HTTP with the JDK's built-in server instead.
 */
package org.apache.iceberg.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.util.Pair;

public final class DataboxFallbackRestServer {
  private static final String ENV_PREFIX = "CATALOG_";

  private DataboxFallbackRestServer() {}

  /** Catalog properties from CATALOG_* variables (CATALOG_REST_PORT included as rest.port). */
  static Map<String, String> propertiesFromEnvironment(Map<String, String> env) {
    Map<String, String> props = new HashMap<>();
    env.forEach(
        (name, value) -> {
          if (!name.startsWith(ENV_PREFIX)) {
            return;
          }
          String key =
              name.substring(ENV_PREFIX.length())
                  .toLowerCase(Locale.ROOT)
                  .replace("__", "-")
                  .replace('_', '.');
          props.put(key, value);
        });
    return props;
  }

  private static Map<String, String> parseQuery(String rawQuery) {
    Map<String, String> params = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return params;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      params.put(
          URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return params;
  }

  private static void send(HttpExchange exchange, int status, Object body) throws IOException {
    // HEAD answers (existence checks) carry the status only.
    if (body == null || "HEAD".equals(exchange.getRequestMethod())) {
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
      return;
    }
    byte[] bytes = RESTObjectMapper.mapper().writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static ErrorResponse error(int code, String type, String message) {
    return ErrorResponse.builder().responseCode(code).withType(type).withMessage(message).build();
  }

  private static void handle(RESTCatalogAdapter adapter, HttpExchange exchange)
      throws IOException {
    HTTPRequest.HTTPMethod method;
    try {
      method = HTTPRequest.HTTPMethod.valueOf(exchange.getRequestMethod());
    } catch (IllegalArgumentException e) {
      send(exchange, 405, error(405, "MethodNotAllowed", "unsupported method"));
      return;
    }
    String path = exchange.getRequestURI().getPath().replaceFirst("^/+", "");
    Pair<RESTCatalogAdapter.Route, Map<String, String>> match =
        RESTCatalogAdapter.Route.from(method, path);
    if (match == null) {
      send(exchange, 400, error(400, "BadRequestException", "no route for " + method + " /" + path));
      return;
    }
    RESTCatalogAdapter.Route route = match.first();
    Map<String, String> query = parseQuery(exchange.getRequestURI().getRawQuery());
    byte[] raw = exchange.getRequestBody().readAllBytes();
    Object body = null;
    if (route == RESTCatalogAdapter.Route.TOKENS
        || route == RESTCatalogAdapter.Route.SEPARATE_AUTH_TOKENS_URI) {
      body = parseQuery(new String(raw, StandardCharsets.UTF_8));
    } else if (route.requestClass() != null && raw.length > 0) {
      body = RESTObjectMapper.mapper().readValue(raw, route.requestClass());
    }
    Map<String, String> headers = new HashMap<>();
    exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));

    ErrorResponse[] failure = new ErrorResponse[1];
    Map<String, String> responseHeaders = new HashMap<>();
    RESTResponse response;
    try {
      HTTPRequest request = adapter.buildRequest(method, path, query, headers, body);
      response =
          adapter.execute(
              request, route.responseClass(), err -> failure[0] = err, responseHeaders::putAll);
    } catch (RuntimeException e) {
      // The adapter throws after handing an error to the handler; keep that error.
      if (failure[0] == null) {
        ErrorResponse.Builder builder = ErrorResponse.builder();
        RESTCatalogAdapter.configureResponseFromException(e, builder);
        failure[0] = builder.build();
      }
      response = null;
    }
    responseHeaders.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
    if (failure[0] != null) {
      send(exchange, failure[0].code(), failure[0]);
    } else if (response == null) {
      send(exchange, 204, null);
    } else {
      send(exchange, 200, response);
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> props = propertiesFromEnvironment(System.getenv());
    String port = props.remove("rest.port");
    if (port == null) {
      System.err.println("FALLBACK catalog: set CATALOG_REST_PORT");
      System.exit(2);
    }
    props.putIfAbsent(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
    Catalog catalog = CatalogUtil.buildIcebergCatalog("databox_fallback", props, null);
    RESTCatalogAdapter adapter = new RESTCatalogAdapter(catalog);

    HttpServer server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(port)), 0);
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.createContext(
        "/",
        exchange -> {
          try {
            handle(adapter, exchange);
          } catch (Exception e) {
            send(exchange, 500, error(500, e.getClass().getSimpleName(), String.valueOf(e)));
          }
        });
    server.start();
    System.out.println("FALLBACK Iceberg REST catalog (not Polaris) on 127.0.0.1:" + port);
  }
}
