/*
 * What Swift cannot call directly in WebKitGTK (GTK 3, webkit2gtk-4.1) and GLib:
 * g_signal_connect is a macro over g_signal_connect_data taking an untyped GCallback, the
 * GObject cast macros (GTK_WIDGET(), WEBKIT_WEB_VIEW(), ...) are macros, and a few helpers
 * build strings with variadic functions. Each signal gets a typed connector so the Swift side
 * passes a @convention(c) closure with the signal's real signature and no unsafeBitCast.
 */
#ifndef BRIDGE_INSPECTOR_CWEBKITGTK_SHIM_H
#define BRIDGE_INSPECTOR_CWEBKITGTK_SHIM_H

#include <webkit2/webkit2.h>
#include <glib-unix.h>

/* Casts (the GTK/GObject macros check the type at run time). */
static inline GtkWidget *shim_web_view_as_widget(WebKitWebView *view) { return GTK_WIDGET(view); }
static inline WebKitWebView *shim_widget_as_web_view(GtkWidget *widget) { return WEBKIT_WEB_VIEW(widget); }
static inline WebKitWebView *shim_object_as_web_view(GObject *object) { return WEBKIT_WEB_VIEW(object); }
static inline GtkWindow *shim_widget_as_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline GtkContainer *shim_widget_as_container(GtkWidget *widget) { return GTK_CONTAINER(widget); }

/* Typed signal connectors (g_signal_connect is a macro). */
typedef void (*ShimScriptMessageCallback)(WebKitUserContentManager *manager,
                                          WebKitJavascriptResult *result,
                                          gpointer user_data);
static inline gulong shim_connect_script_message_received(WebKitUserContentManager *manager,
                                                          const char *handler_name,
                                                          ShimScriptMessageCallback callback,
                                                          gpointer user_data)
{
    gchar *signal = g_strconcat("script-message-received::", handler_name, NULL);
    gulong id = g_signal_connect_data(manager, signal, G_CALLBACK(callback), user_data, NULL, (GConnectFlags)0);
    g_free(signal);
    return id;
}

typedef void (*ShimLoadChangedCallback)(WebKitWebView *view, WebKitLoadEvent event, gpointer user_data);
static inline gulong shim_connect_load_changed(WebKitWebView *view, ShimLoadChangedCallback callback, gpointer user_data)
{
    return g_signal_connect_data(view, "load-changed", G_CALLBACK(callback), user_data, NULL, (GConnectFlags)0);
}

typedef gboolean (*ShimLoadFailedCallback)(WebKitWebView *view, WebKitLoadEvent event, gchar *failing_uri,
                                           GError *error, gpointer user_data);
static inline gulong shim_connect_load_failed(WebKitWebView *view, ShimLoadFailedCallback callback, gpointer user_data)
{
    return g_signal_connect_data(view, "load-failed", G_CALLBACK(callback), user_data, NULL, (GConnectFlags)0);
}

typedef void (*ShimWebProcessTerminatedCallback)(WebKitWebView *view, WebKitWebProcessTerminationReason reason,
                                                 gpointer user_data);
static inline gulong shim_connect_web_process_terminated(WebKitWebView *view, ShimWebProcessTerminatedCallback callback,
                                                         gpointer user_data)
{
    return g_signal_connect_data(view, "web-process-terminated", G_CALLBACK(callback), user_data, NULL, (GConnectFlags)0);
}

typedef void (*ShimDestroyCallback)(GtkWidget *widget, gpointer user_data);
static inline gulong shim_connect_destroy(GtkWidget *widget, ShimDestroyCallback callback, gpointer user_data)
{
    return g_signal_connect_data(widget, "destroy", G_CALLBACK(callback), user_data, NULL, (GConnectFlags)0);
}

#endif
