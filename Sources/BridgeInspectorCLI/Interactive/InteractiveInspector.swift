import CursesBackend
import Foundation
import InspectorClient
import InspectorProtocol
import InspectorTUI
import TerminalUI

/// Runs the interactive inspector on the terminal: attaches to the host at `socketPath`, draws
/// the model, feeds it keys, frames and ticks, carries out its effects, and reattaches to the
/// same socket when the host goes away and comes back. With a `follower` (`--host NAME`) it
/// instead looks the name up again while detached, so a host run again (a new pid, a new
/// socket) is attached by itself; before the first host of the name runs, it shows that it waits.
///
/// Everything here happens on one thread (curses is not thread-safe); the only waiting is the
/// event loop's `poll` on the terminal and the socket, at most 100 ms at a time.
struct InteractiveInspector {
    let socketPath: String
    /// Follows a host by name across runs; `socketPath` may then be empty (no host yet).
    var follower: HostFollower?
    /// Where to attach when not the Unix socket at `socketPath` (`--connect`, over TCP).
    var endpoint: InspectorEndpoint? = nil
    /// Checked every tick; `true` ends the inspector as if `q` was pressed.
    var shouldStop: @Sendable () -> Bool = { false }
    var reconnectInterval: TimeInterval = 1
    /// Where what a person builds up is kept between runs (reply rules, the event history, the
    /// responses sent by hand).
    var stateDirectory = StateDirectory()
    /// Rules from a shared rules file (`--rules FILE`, already read and checked) and the path
    /// to name in the note, loaded paused after the saved rules.
    var sharedRules: SharedRules? = nil
    /// The rules of a shared rules file, and its path as given.
    typealias SharedRules = (book: ReplyRuleBook, path: String)
    /// Watch only (`--read-only`): nothing can be sent, for pairing and demos.
    var readOnly = false
    /// Report clicks and the wheel (off with `--no-mouse`, which leaves the terminal its own
    /// text selection).
    var mouse = true
    /// A recording to compare the session with as the inspector opens (`--compare FILE`): the
    /// view opens at once and compares again when the host's state arrives.
    var comparison: (path: String, contents: Recording.Contents)? = nil
    /// How often an idle screen is redrawn (for the ages and countdowns it shows).
    static let idleRedrawInterval: TimeInterval = 0.25

    func run() throws {
        var screen = try CursesScreen(options: CursesScreen.Options(mouse: mouse))
        defer { screen.end() }
        var loop = EventLoop(screen: screen)
        var model = InspectorModel(size: screen.size, socketPath: socketPath)
        model.readOnly = readOnly
        model.followedHost = follower.map { $0.target.name }
        // Reply rules, the event history and the responses sent by hand are kept between runs
        // ($XDG_STATE_HOME), like a shell's history; a damaged file is reported and never overwritten.
        var store = InspectorStateStore(directory: stateDirectory)
        store.load(into: &model)
        if let sharedRules {
            InspectorStateStore.loadShared(sharedRules.book, from: sharedRules.path, into: &model)
            // Said on screen, after the note that the rules were loaded (paused), so it is seen.
            if let warning = ReplyRuleBook.othersCanChangeWarning(file: sharedRules.path) { model.handle(.notice("warning: " + warning, isError: true)) }
        }
        var session: InspectorSession?
        var lastAttempt = Date.distantPast
        let retryInterval = follower == nil ? reconnectInterval : min(reconnectInterval, 2 * HostFollower.pollInterval)

        func attach() {
            lastAttempt = Date()
            var path = model.socketPath
            if let follower {
                guard let found = try? follower.newest() else { return }
                path = found.socket.path
                if path != model.socketPath || found.note != nil { model.handle(.attaching(socketPath: path, note: found.note)) }
            }
            guard let opened = try? InspectorSession(endpoint: endpoint ?? .unixSocket(path: path), subscribe: true, clientName: "bridge-inspector tui", timeout: 2) else {
                return
            }
            session = opened
            // The hello says which connection this is: the breakpoints it sets are marked as ours.
            model.handle(.frame(.hello(opened.hello)))
            loop.watch(opened.fileDescriptor)
        }

        func detach() {
            if let current = session { loop.unwatch(current.fileDescriptor) }
            session?.close()
            session = nil
            model.handle(.disconnected)
        }

        func perform(_ effects: [InspectorEffect]) {
            for effect in effects {
                switch effect {
                case .quit:
                    break
                case .send(let command, let label):
                    guard let current = session else {
                        model.handle(.commandFailed(label: label, error: "not connected to the host"))
                        continue
                    }
                    do {
                        let id = try current.send(command)
                        model.handle(.commandSent(id: id, label: label))
                    } catch {
                        model.handle(.commandFailed(label: label, error: "\(error)"))
                    }
                case .copyToClipboard(let bytes):
                    if let notice = TerminalClipboard.copy(bytes, to: screen) { model.handle(notice) }
                case .saveRecording(let path, let bytes, let overwrite):
                    model.handle(.recordingSaved(RecordingFile.write(bytes, to: path, overwrite: overwrite)))
                case .saveFaultRules(let path, let bytes, let overwrite):
                    model.handle(.faultRulesSaved(RecordingFile.write(bytes, to: path, overwrite: overwrite)))
                case .loadComparison(let path):
                    model.handle(.comparisonLoaded(path: path, RecordingPath.load(path)))
                case .loadFaultRules(let path):
                    model.handle(.faultRulesLoaded(path: path, Result { () throws(FaultRuleFileError) in try FaultRuleFile.read(file: path) }))
                case .openEditor(let text, let purpose):
                    screen.end()
                    let edited = ExternalEditor.edit(text)
                    if let reopened = try? CursesScreen(options: CursesScreen.Options(mouse: mouse)) {
                        screen = reopened
                        loop = EventLoop(screen: screen)
                        if let current = session { loop.watch(current.fileDescriptor) }
                        model.handle(.resize(screen.size))
                    }
                    model.handle(.editorFinished(purpose: purpose, text: edited))
                }
            }
        }

        attach()
        if let comparison { model.handle(.comparisonLoaded(path: comparison.path, comparison.contents)) }
        // A followed host that does not run yet is waited for (the screen says so), not lost.
        if session == nil, follower == nil { model.handle(.disconnected) }
        // Redraw at once after anything happened; while idle only as often as the ages and
        // countdowns on screen need (four times a second), which keeps an idle inspector cheap.
        var changed = true
        var lastDrawn = Date.distantPast
        while !model.quitting, !shouldStop() {
            let now = Date()
            // A tick can make a reply rule's delayed answer due: carry out what it returns.
            perform(model.handle(.tick(now.timeIntervalSince1970 * 1000)))
            if changed || now.timeIntervalSince(lastDrawn) >= Self.idleRedrawInterval {
                screen.draw(model.render())
                lastDrawn = now
                changed = false
            }
            let tick = loop.next(timeout: .milliseconds(100))
            if !tick.events.isEmpty { changed = true }
            for event in tick.events {
                switch event {
                case .key(let key): perform(model.handle(.key(key)))
                case .resize(let size): model.handle(.resize(size))
                case .mouse(let pointer): perform(model.handle(.mouse(pointer)))
                }
                if model.quitting { break }
            }
            if tick.inputClosed { break }
            if let current = session, tick.isReady(current.fileDescriptor) {
                changed = true
                do {
                    // A frame can bring a request a reply rule answers: carry out what it returns.
                    for frame in try current.readAvailableFrames() { perform(model.handle(.frame(frame))) }
                    if current.isClosed { detach() }
                } catch {
                    detach()
                }
            }
            if session == nil, Date().timeIntervalSince(lastAttempt) >= retryInterval {
                attach()
                changed = true
            }
            if let problem = store.saveChanges(of: model) { model.handle(.notice(problem, isError: true)) }
        }
        store.saveChanges(of: model)
        session?.close()
    }
}
